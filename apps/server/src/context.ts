import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Database, DatabaseHandle } from './db/database.js';
import type { Mailer } from './integrations/mail/mailer.js';
import type { Bus } from './lib/bus.js';
import type { PollVersions } from './lib/poll-versions.js';
import type { OperatorSettingsCache } from './lib/operator-settings-cache.js';
import type { InvoiceNumbering } from './modules/invoices/invoice-numbers.js';
import type { Sessions } from './plugins/session.js';

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

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
  /** Numbers invoices just after their payments commit (invoice-numbers.ts). */
  invoiceNumbering: InvoiceNumbering;
  /** The operator's console overrides (settings table), cached until the console changes them. */
  operatorSettings: OperatorSettingsCache;
  log: FastifyBaseLogger;
}
