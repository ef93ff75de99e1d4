import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { runAdminCli } from '../src/cli/admin-cli.js';
import { dumpEmbedded } from '../src/cli/backup.js';
import { claimDataDir, type ControlSocket } from '../src/cli/control-socket.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, type Database, type DatabaseHandle } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createCustomer, credit, json, seedTestCatalog } from './fixtures.js';
import type { TestApp } from './helpers.js';

// Issue 17, item 3: `npm run admin -- backup FILE` and `restore FILE` for the embedded database. A server's database
// in a DATA_DIR of its own holds customers with ports, ledger entries and invoices; the CLI backs it up through the
// running server's control socket and again with no server running; each backup restored into a fresh DATA_DIR has
// every customer, port, ledger entry and invoice of the source, by id. Always PGlite, whatever TEST_DATABASE_URL says.

const root = mkdtempSync(join(tmpdir(), 'cellport-backup-'));
const sourceDir = join(root, 'source');
const env = (dataDir: string) => ({ NODE_ENV: 'test', DATA_DIR: dataDir, CAPTCHA_PROVIDER: 'off', WEB_DIST: '/nonexistent' });

interface Lines { out: string[]; err: string[] }
async function cli(args: string[], dataDir: string): Promise<{ code: number } & Lines> {
  const lines: Lines = { out: [], err: [] };
  const code = await runAdminCli(args, env(dataDir), { out: (l) => lines.out.push(l), err: (l) => lines.err.push(l) });
  return { code, ...lines };
}

interface Snapshot { customers: string[]; ports: string[]; ledger: string[]; invoices: string[]; balances: string[] }
async function snapshot(db: Database): Promise<Snapshot> {
  const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id).sort();
  return {
    customers: ids(await db.selectFrom('users').select('id').where('role', '=', 'customer').execute()),
    ports: ids(await db.selectFrom('ports').select('id').execute()),
    ledger: ids(await db.selectFrom('ledger_entries').select(({ ref }) => ref('id').$castTo<string>().as('id')).execute()),
    invoices: ids(await db.selectFrom('invoices').select('id').execute()),
    balances: (await db.selectFrom('balances').select(['user_id', 'coin', 'amount']).execute())
      .map((b) => `${b.user_id}/${b.coin}/${String(b.amount)}`).sort(),
  };
}

async function openRestored(dataDir: string): Promise<Snapshot> {
  const handle = await openDatabase({ dataDir });
  try { return await snapshot(handle.db); } finally { await handle.close(); }
}

let source: DatabaseHandle | null = null;
let t: TestApp | null = null;
let control: ControlSocket | null = null;
let expected: Snapshot;

beforeAll(async () => {
  // The server's own steps on an empty DATA_DIR: claim it, open the embedded database, migrate, build the app.
  control = await claimDataDir(sourceDir);
  const template = inject('dbTemplate');
  source = await openDatabase({
    dataDir: sourceDir, ...(template.kind === 'pglite' ? { loadDataDir: new Blob([await readFile(template.dumpFile)]) } : {}),
  });
  await migrateToLatest(source.db);
  const config = loadConfig({ ...env(sourceDir), PUBLIC_URL: 'http://localhost:3000', RATE_LIMIT_PAYMENTS_PER_MINUTE: '10000' });
  const { app, ctx } = await buildApp({ config, database: source, logger: false });
  await app.ready();
  const handle = source;
  t = { app, ctx, config, close: async () => { await app.close(); await handle.close(); } };
  control.serve({ backup: () => dumpEmbedded(handle) });

  const catalog = await seedTestCatalog(t);
  for (const dollars of [500, 300]) {
    const customer = await createCustomer(t, dollars);
    await credit(t, customer.id, 1_000_000n);
    const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(customer.cookie, {
      tariff_id: catalog.dedicatedMonth.id, country_id: catalog.usId, isShared: false, rotationInterval: 0, modemCount: 2,
    }) });
    expect(bought.statusCode, bought.body).toBe(200);
  }
  await createCustomer(t); // one with nothing
  expected = await snapshot(t.ctx.db);
  expect(expected.customers).toHaveLength(3);
  expect(expected.ports).toHaveLength(4);
  expect(expected.ledger.length).toBeGreaterThanOrEqual(6);
  expect(expected.invoices).toHaveLength(2);
}, 300_000); // with TEST_DATABASE_URL set, the embedded database is migrated from scratch here

afterAll(async () => {
  await control?.close();
  await t?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('backups of the embedded database', () => {
  it('while the server runs: the backup comes from it; other commands and restore refuse, naming the server', async () => {
    const file = join(root, 'online.tar.gz');
    const backup = await cli(['backup', file], sourceDir);
    expect(backup.err).toEqual([]);
    expect(backup.code).toBe(0);
    expect(backup.out.join('\n')).toContain('from the running server');
    expect((await readFile(file)).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));

    const list = await cli(['list'], sourceDir);
    expect(list.code).toBe(1);
    expect(list.err.join('\n')).toMatch(/A Cellport server is using the embedded database in .*stop the server/);
    const restore = await cli(['restore', file, '--force'], sourceDir);
    expect(restore.code).toBe(1);
    expect(restore.err.join('\n')).toContain('A Cellport server is using the embedded database');

    // A second server on the same DATA_DIR is refused before it opens anything.
    await expect(claimDataDir(sourceDir)).rejects.toThrow(/Another Cellport server is using/);
  });

  it('restores into a fresh DATA_DIR with every customer, port, ledger entry and invoice; refuses to overwrite without --force', async () => {
    const file = join(root, 'online.tar.gz');
    const fresh = join(root, 'fresh');
    const restored = await cli(['restore', file], fresh);
    expect(restored.err).toEqual([]);
    expect(restored.code).toBe(0);
    expect(restored.out[0]).toContain('3 customer(s), 4 port(s)');
    expect(await openRestored(fresh)).toEqual(expected);

    const again = await cli(['restore', file], fresh);
    expect(again.code).toBe(1);
    expect(again.err.join('\n')).toContain('already holds a database');
    expect(again.err.join('\n')).toContain('--force');

    const forced = await cli(['restore', file, '--force'], fresh);
    expect(forced.code).toBe(0);
    const aside = readdirSync(fresh).filter((n) => n.startsWith('pglite.before-restore-'));
    expect(aside).toHaveLength(1);
    expect(forced.out.join('\n')).toContain(aside[0]);
    expect(await openRestored(fresh)).toEqual(expected);
  }, 240_000);

  it('a file that is not a backup changes nothing', async () => {
    const bogus = join(root, 'bogus.tar.gz');
    writeFileSync(bogus, 'not a backup');
    const target = join(root, 'untouched');
    const r = await cli(['restore', bogus], target);
    expect(r.code).toBe(1);
    expect(r.err.join('\n')).toContain('is not a backup of the embedded database');
    expect(existsSync(join(target, 'pglite'))).toBe(false);
  });

  it('with no server running, backup opens DATA_DIR itself; that backup restores the same rows', async () => {
    await control!.close();
    control = null;
    await t!.close();
    t = null;
    const file = join(root, 'stopped.tar.gz');
    const backup = await cli(['backup', file], sourceDir);
    expect(backup.err).toEqual([]);
    expect(backup.out.join('\n')).toContain('no server was running');
    const fresh = join(root, 'fresh-stopped');
    expect((await cli(['restore', file], fresh)).code).toBe(0);
    expect(await openRestored(fresh)).toEqual(expected);
  }, 240_000);

  it('with DATABASE_URL set, backup and restore point to pg_dump and pg_restore', async () => {
    const lines: Lines = { out: [], err: [] };
    const io = { out: (l: string) => lines.out.push(l), err: (l: string) => lines.err.push(l) };
    const pgEnv = { ...env(join(root, 'pg')), DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
    expect(await runAdminCli(['backup', 'x.dump'], pgEnv, io)).toBe(1);
    expect(await runAdminCli(['restore', 'x.dump'], pgEnv, io)).toBe(1);
    expect(lines.err.join('\n')).toContain('pg_dump --format=custom --file=x.dump');
    expect(lines.err.join('\n')).toContain('pg_restore --no-owner');
  });
});
