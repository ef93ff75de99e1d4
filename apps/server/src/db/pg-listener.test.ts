import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { buildTestApp, describeOnPostgres, type TestApp } from '../../test/helpers.js';
import { BUS_RESYNC } from '../lib/bus.js';
import { TOPICS } from '../lib/bus-topics.js';
import { createCustomer, json } from '../../test/fixtures.js';

// Losing the LISTEN connection is a PostgreSQL matter; PGlite's NOTIFY is in-process.
describeOnPostgres('a lost LISTEN connection', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp(); });
  afterAll(async () => { await t.close(); });

  const poll = (cookie: string, etag?: string) => t.app.inject({
    method: 'GET', url: '/api/v1/notifications', ...json(cookie, undefined, etag ? { 'if-none-match': etag } : {}),
  });

  it('comes back: missed poll bumps and revocations are not served from memory, and NOTIFY is heard again', async () => {
    const stays = await createCustomer(t);
    const revoked = await createCustomer(t);
    const first = await poll(stays.cookie);
    const etag = first.headers.etag as string;
    expect((await poll(stays.cookie, etag)).statusCode).toBe(304);
    expect((await poll(revoked.cookie)).statusCode).toBe(200); // its session is now in the memory cache

    const resynced = new Promise<void>((resolve) => { const off = t.ctx.bus.on(BUS_RESYNC, () => { off(); resolve(); }); });
    const { rows } = await sql<{ pid: number }>`
      select pid from pg_stat_activity where datname = current_database() and query ilike 'listen %'`.execute(t.ctx.db);
    expect(rows).toHaveLength(1);
    await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(t.ctx.db);
    // What another instance did while this one was deaf: its NOTIFYs are lost, only the database knows.
    await sql`insert into poll_versions (user_id, kind, version) values (${stays.id}, 'notifications', 7)
      on conflict (user_id, kind) do update set version = 7`.execute(t.ctx.db);
    await t.ctx.db.deleteFrom('sessions').where('user_id', '=', revoked.id).execute();
    await resynced;

    const after = await poll(stays.cookie, etag);
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).toBe('"n7"');
    expect((await poll(revoked.cookie)).statusCode).toBe(401);

    // The new connection listens again: a message from "another instance" arrives.
    const heard = new Promise((resolve) => { const off = t.ctx.bus.on(TOPICS.apiKeyRevoked, (data) => { off(); resolve(data); }); });
    const other = new pg.Client({ connectionString: await currentUrl(t) });
    await other.connect();
    await other.query(`select pg_notify('cellport_bus', $1)`, [JSON.stringify({ origin: 'elsewhere', topic: TOPICS.apiKeyRevoked.name, data: { hash: 'after-reconnect' } })]);
    await other.end();
    expect(await heard).toEqual({ hash: 'after-reconnect' });
  });
});

/** The test database's URL: TEST_DATABASE_URL with this database's name. */
async function currentUrl(t: TestApp): Promise<string> {
  const { rows } = await sql<{ db: string }>`select current_database() as db`.execute(t.ctx.db);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${rows[0]!.db}`;
  return url.toString();
}
