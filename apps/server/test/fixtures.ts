import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { announced } from './announcements.js';
import type { TestApp } from './helpers.js';
import { seedCatalog } from '../src/db/seed/catalog.js';
import { LedgerRepository, LedgerService } from '../src/modules/ledger/index.js';

export interface Customer { id: string; cookie: string }

/** A customer with a real session (created directly in the database) and an optional USDT balance in dollars. */
export async function createCustomer(t: TestApp, dollars = 0, language = 'en'): Promise<Customer> {
  const id = randomUUID();
  await t.ctx.db.insertInto('users').values({
    id, email: `c-${id}@test.local`, name: 'Test Customer', password_hash: 'x', is_verified: true, language,
  }).execute();
  const token = await t.ctx.sessions.create(id, { ip: '127.0.0.1', headers: {} } as FastifyRequest);
  if (dollars > 0) await credit(t, id, BigInt(dollars) * 1_000_000n);
  return { id, cookie: `cp_session=${token}` };
}

export async function credit(t: TestApp, userId: string, micro: bigint): Promise<void> {
  const ledger = new LedgerService(new LedgerRepository(t.ctx.db));
  await t.ctx.db.transaction().execute((tx) => ledger.credit(tx, {
    userId, coin: 'usdt', amount: micro, kind: 'test-credit', reference: `test:${randomUUID()}`,
  }));
}

/** The seeded demo catalog (4 countries, 45 modems, tariffs). */
export async function seedTestCatalog(t: TestApp) {
  await seedCatalog(t.ctx);
  const us = await t.ctx.db.selectFrom('countries').select('id').where('code', '=', 'US').executeTakeFirstOrThrow();
  const tariff = (shared: boolean, period: string) => t.ctx.db.selectFrom('tariffs').selectAll()
    .where('country_id', '=', us.id).where('is_shared', '=', shared).where('period', '=', period as 'day').executeTakeFirstOrThrow();
  return {
    usId: us.id,
    dedicatedMonth: await tariff(false, 'month'),
    dedicatedWeek: await tariff(false, 'week'),
    dedicatedDay: await tariff(false, 'day'),
    sharedMonth: await tariff(true, 'month'),
  };
}

/** Leaves exactly `n` free dedicated US modems (the others retired). */
export async function leaveFreeDedicated(t: TestApp, countryId: string, n: number): Promise<void> {
  const keep = await t.ctx.db.selectFrom('modems').select('id').where('country_id', '=', countryId)
    .where('is_shared', '=', false).where('used_slots', '=', 0).orderBy('imei').limit(n).execute();
  await t.ctx.db.updateTable('modems').set({ retired: true })
    .where('country_id', '=', countryId).where('is_shared', '=', false)
    .where('id', 'not in', keep.length ? keep.map((k) => k.id) : [randomUUID()]).execute();
}

export async function usdtBalance(t: TestApp, userId: string): Promise<bigint> {
  const row = await t.ctx.db.selectFrom('balances').select('amount').where('user_id', '=', userId).where('coin', '=', 'usdt').executeTakeFirst();
  return row ? BigInt(row.amount) : 0n;
}

export const json = (cookie: string, body?: unknown, headers: Record<string, string> = {}) => ({
  headers: { cookie, origin: 'http://localhost:3000', ...headers }, ...(body === undefined ? {} : { payload: body as object }),
});

/**
 * GET /api/v1/modems once every announcement committed so far has been heard. A write made by the server itself
 * (a webhook, a job, another instance) reaches the kept port list through its NOTIFY, a moment after the commit
 * (decision 015); the sentinel of `announced` comes back after it, so this list shows every committed write.
 */
export async function portsAfterAnnouncements<P = Record<string, unknown>>(t: TestApp, cookie: string): Promise<P[]> {
  await announced(t);
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/modems', ...json(cookie) });
  if (res.statusCode !== 200) throw new Error(`GET /api/v1/modems answered ${res.statusCode}: ${res.body}`);
  return res.json() as P[];
}
