import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import type { TestApp } from './helpers.js';
import { copyTemplateDatabase } from './template-db.js';

/**
 * What a process test (a server, agent or gateway started as its own process) stands on: its own PostgreSQL database
 * copied from the run's template, its own data directory, and the app in-process on the same database and settings,
 * with no job runner, for making customers, catalog and ports the way the product does. Process tests need PostgreSQL
 * (two processes on one database); PGlite allows one.
 */
export interface ProcessTestWorld {
  /** The database's URL, for the processes the test starts. */
  dbUrl: string;
  dataDir: string;
  /** The in-process app and its database handle. */
  t: TestApp;
  database: DatabaseHandle;
  /** Closes the app and the handle, drops the database and removes the directory. */
  cleanup(): Promise<void>;
}

/**
 * `env(world)` gives the settings of the app in-process: it may read the world's `dbUrl` and `dataDir` (known by
 * then); NODE_ENV is set to 'test'.
 */
export async function openProcessTestWorld(options: {
  name: string;
  env: (paths: { dbUrl: string; dataDir: string }) => Record<string, string | undefined>;
  poolSize?: number;
}): Promise<ProcessTestWorld> {
  const template = inject('dbTemplate');
  if (template.kind !== 'postgres') throw new Error('a process test needs the PostgreSQL template (TEST_DATABASE_URL)');
  const copy = await copyTemplateDatabase(template);
  const dataDir = await mkdtemp(join(tmpdir(), `cellport-${options.name}-`));
  const config = loadConfig({ ...options.env({ dbUrl: copy.url, dataDir }), NODE_ENV: 'test' });
  const database = await openDatabase({ databaseUrl: copy.url, dataDir: '', poolSize: options.poolSize ?? 4 });
  const { app, ctx } = await buildApp({ config, database, logger: false });
  await app.ready();
  const t: TestApp = { app, ctx, config, close: () => app.close() };
  return {
    dbUrl: copy.url, dataDir, t, database,
    async cleanup() {
      await app.close();
      await database.close();
      await copy.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
