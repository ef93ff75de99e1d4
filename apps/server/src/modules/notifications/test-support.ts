import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { inject } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import type { TestApp } from '../../../test/helpers.js';
import { openTestDatabase } from '../../../test/template-db.js';

/** Counts every statement sent through Kysely (raw `sql` included). */
export class QueryCounter implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode { this.count++; return args.node; }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> { return args.result; }
}

/**
 * Like buildTestApp, with every query counted — the proof that a poll did not touch the database. Pass an
 * existing template-copied database to run a second instance on the same PostgreSQL database, and `deafTo` to
 * keep the app from hearing some NOTIFY channels (an announcement that has not arrived yet).
 */
export async function buildCountingApp(
  env: Record<string, string> = {}, shareWith?: TestApp, deafTo: string[] = [],
): Promise<TestApp & { queries: QueryCounter }> {
  const config = loadConfig({
    NODE_ENV: 'test', CAPTCHA_PROVIDER: 'off', RATE_LIMIT_AUTH_PER_MINUTE: '1000',
    PUBLIC_URL: 'http://localhost:3000', DATA_DIR: '/tmp/cellport-test', WEB_DIST: '/nonexistent', ...env,
  });
  const queries = new QueryCounter();
  const database = shareWith ? await reopen(shareWith) : await openTestDatabase(inject('dbTemplate'));
  database.db = database.db.withPlugin(queries);
  const listen = database.listen.bind(database);
  database.listen = (channel, onPayload, onResync) =>
    (deafTo.includes(channel) ? listen(channel, () => {}, onResync) : listen(channel, onPayload, onResync));
  const { app, ctx } = await buildApp({ config, database, logger: false });
  await app.ready();
  return {
    app, ctx, config, queries,
    async close() { await app.close(); await database.close(); },
  };
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
