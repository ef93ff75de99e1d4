import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { inject } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import type { TestApp } from '../../../test/helpers.js';
import { announced } from '../../../test/announcements.js';
import { seedPortEnv } from '../../../test/seed-ports.js';
import { openTestDatabase } from '../../../test/template-db.js';

/**
 * Counts every statement sent through Kysely (raw `sql` included): when it is compiled, or, for one run from a kept
 * compiled text (db/compiled-once.ts: no compile, so no transformQuery), when its result comes back.
 */
export class QueryCounter implements KyselyPlugin {
  count = 0;
  private readonly compiled = new WeakSet<object>();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.count++;
    this.compiled.add(args.queryId);
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (!this.compiled.has(args.queryId)) this.count++;
    return args.result;
  }
}

export type CountingApp = TestApp & {
  queries: QueryCounter;
  /**
   * Resolves when nothing the app started in the background is still running, so the queries counted after it are
   * the test's own: every NOTIFY committed so far has been heard (a sentinel came back, test/announcements.ts), the
   * e-mail sends those announcements started have finished, and so has the invoice numbering a payment kicked.
   */
  settled(): Promise<void>;
};

/**
 * Like buildTestApp, with every query counted — the proof that a poll did not touch the database. Pass an
 * existing template-copied database to run a second instance on the same PostgreSQL database, and `deafTo` to
 * keep the app from hearing some NOTIFY channels (an announcement that has not arrived yet).
 */
export async function buildCountingApp(
  env: Record<string, string> = {}, shareWith?: TestApp, deafTo: string[] = [],
): Promise<CountingApp> {
  const config = loadConfig({
    NODE_ENV: 'test', CAPTCHA_PROVIDER: 'off', RATE_LIMIT_AUTH_PER_MINUTE: '1000',
    PUBLIC_URL: 'http://localhost:3000', DATA_DIR: '/tmp/cellport-test', WEB_DIST: '/nonexistent', ...await seedPortEnv(), ...env,
  });
  const queries = new QueryCounter();
  const database = shareWith ? await reopen(shareWith) : await openTestDatabase(inject('dbTemplate'));
  database.db = database.db.withPlugin(queries);
  const listen = database.listen.bind(database);
  database.listen = (channel, onPayload, onResync) =>
    (deafTo.includes(channel) ? listen(channel, () => {}, onResync) : listen(channel, onPayload, onResync));
  const { app, ctx } = await buildApp({ config, database, logger: false });
  await app.ready();
  // Every e-mail send is watched (not replaced: each runs as it would), so settled() can wait for the ones started.
  const sending: Array<Promise<unknown>> = [];
  const emails = app.notificationEmails;
  const send = emails.send.bind(emails);
  emails.send = (id: string) => {
    const sent = send(id);
    sending.push(sent);
    return sent;
  };
  const t: CountingApp = {
    app, ctx, config, queries,
    async settled() {
      await announced(t);
      await Promise.all(sending.splice(0));
      await ctx.invoiceNumbering.idle();
    },
    async close() { await app.close(); await database.close(); },
  };
  return t;
}

/** A second pool on the database of another test app (PostgreSQL only): a separate server instance. */
async function reopen(other: TestApp) {
  if (other.ctx.database.kind !== 'postgres') throw new Error('two instances need PostgreSQL (TEST_DATABASE_URL)');
  const { openDatabase } = await import('../../db/database.js');
  const url = await currentDatabaseUrl(other);
  return openDatabase({ databaseUrl: url, dataDir: '', poolSize: 5 });
}

async function currentDatabaseUrl(other: TestApp): Promise<string> {
  const { sql } = await import('kysely');
  const { rows } = await sql<{ db: string }>`select current_database() as db`.execute(other.ctx.db);
  const base = new URL(process.env.TEST_DATABASE_URL!);
  base.pathname = `/${rows[0]!.db}`;
  return base.toString();
}
