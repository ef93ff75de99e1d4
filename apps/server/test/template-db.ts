import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';

export type Template = ({ kind: 'pglite'; dumpFile: string } | { kind: 'postgres'; url: string; template: string }) & {
  cleanup?: () => Promise<void>;
};

/** PostgreSQL when TEST_DATABASE_URL is set (CI), otherwise PGlite. Migrates one template database. */
export async function prepareTemplate(): Promise<Template> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const template = `cellport_tpl_${process.pid}_${randomBytes(3).toString('hex')}`;
    await admin(url, async (c) => { await c.query(`create database ${template}`); });
    const handle = await openDatabase({ databaseUrl: withDatabase(url, template), dataDir: '' , poolSize: 1 });
    await migrateToLatest(handle.db);
    await handle.close();
    return {
      kind: 'postgres', url, template,
      cleanup: () => admin(url, async (c) => {
        const { rows } = await c.query<{ datname: string }>(
          `select datname from pg_database where datname like $1`, [`cellport_%_${process.pid}_%`]);
        for (const r of rows) await c.query(`drop database if exists ${r.datname} with (force)`);
      }),
    };
  }
  const handle = await openDatabase({ dataDir: '', inMemory: true });
  await migrateToLatest(handle.db);
  const pglite = (handle as unknown as { pglite: import('@electric-sql/pglite').PGlite }).pglite;
  const dump = await pglite.dumpDataDir('gzip');
  const dumpFile = join(tmpdir(), `cellport-test-${process.pid}.tar.gz`);
  await writeFile(dumpFile, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  return { kind: 'pglite', dumpFile, cleanup: () => rm(dumpFile, { force: true }) };
}

/**
 * A fresh PostgreSQL database copied from the template, by its URL: for tests that start and stop servers (or other
 * processes) on it themselves. drop() removes it.
 */
export async function copyTemplateDatabase(template: Extract<Template, { kind: 'postgres' }>): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `cellport_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin(template.url, async (c) => { await c.query(`create database ${name} template ${template.template}`); });
  return {
    url: withDatabase(template.url, name),
    drop: () => admin(template.url, async (c) => { await c.query(`drop database if exists ${name} with (force)`); }),
  };
}

/** A fresh database for one test file, copied from the template. */
export async function openTestDatabase(template: Template): Promise<DatabaseHandle> {
  if (template.kind === 'postgres') {
    const copy = await copyTemplateDatabase(template);
    const handle = await openDatabase({ databaseUrl: copy.url, dataDir: '', poolSize: 20 });
    const close = handle.close.bind(handle);
    handle.close = async () => {
      await close();
      await copy.drop();
    };
    return handle;
  }
  const blob = new Blob([await readFile(template.dumpFile)]);
  return openDatabase({ dataDir: '', inMemory: true, loadDataDir: blob });
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin(url: string, fn: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try { await fn(client); } finally { await client.end(); }
}
