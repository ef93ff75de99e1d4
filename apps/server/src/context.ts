import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Database, DatabaseHandle } from './db/database.js';
import type { Mailer } from './integrations/mail/mailer.js';
import type { Bus } from './lib/bus.js';
import type { PollVersions } from './lib/poll-versions.js';
import type { StoredLanguages } from './lib/request-language.js';
import type { OperatorSettingsCache } from './lib/operator-settings-cache.js';
import type { Sessions } from './plugins/session.js';

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

/**
 * What the context offers of the invoices' numbering. An interface, so the context imports no domain: the invoices'
 * routes take the context, and a face that imports them would make a circle with it.
 */
export interface InvoiceNumberingHandle {
  /** After a commit that issued invoices: numbers them soon, returns at once. */
  kick(): void;
  /** Numbers whatever is pending before invoices are read. */
  settle(): Promise<void>;
  /** Waits for a run in progress (shutdown). */
  idle(): Promise<void>;
}

/** What every module is built from. Modules receive it explicitly; nothing reaches for globals. */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  db: Database;
  bus: Bus;
  sessions: Sessions;
  mailer: Mailer;
  /** Per-customer versions of polled resources, in memory (unchanged polls answer 304 without the database). */
  pollVersions: PollVersions;
  /** Numbers invoices just after their payments commit (invoices' InvoiceNumbering, invoice-numbers.ts). */
  invoiceNumbering: InvoiceNumberingHandle;
  /** The operator's console overrides (settings table), cached until the console changes them. */
  operatorSettings: OperatorSettingsCache;
  /** Each customer's stored language (accounts), which readerLanguage falls back to. */
  languages: StoredLanguages;
  log: FastifyBaseLogger;
}
