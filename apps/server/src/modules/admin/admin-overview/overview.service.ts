import { sql } from 'kysely';
import { ADMIN_LIMITS } from '@cellport/shared/schemas/admin/common';
import { type OverviewResponse } from '@cellport/shared/schemas/admin/overview';
import type { Database } from '../../../db/database.js';
import { netRevenue } from './net-revenue.js';

const DAY_MS = 86_400_000;

/**
 * The console's front page. Revenue = money received: completed payments by an outside provider (top-ups and direct
 * payments), in micro-USD, by UTC day and by method, net of refunds (net-revenue.ts). What customers spent from their
 * balance is usage, shown apart (balanceSpending), never added to revenue. Stock counts online modems.
 */
export async function overview(db: Database, days: number, now = new Date()): Promise<OverviewResponse> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const since = new Date(today - (days - 1) * DAY_MS);
  const weekAhead = new Date(now.getTime() + ADMIN_LIMITS.expiringSoonDays * DAY_MS);
  const [byDay, byMethod, spent, ports, stock, expiringCount, expiring, customers, replacements] = await Promise.all([
    netRevenue(db, since, 'day'),
    netRevenue(db, since, 'provider'),
    netRevenue(db, since, 'all', 'balance'),
    db.selectFrom('ports').select(sql<string>`count(*)`.as('n')).where('status', '=', 'active').executeTakeFirst(),
    db.selectFrom('modems').select(sql<string>`coalesce(sum(capacity - used_slots), 0)`.as('n'))
      .where('online', '=', true).where('retired', '=', false).where('maintenance_since', 'is', null).executeTakeFirst(),
    db.selectFrom('ports').select(sql<string>`count(*)`.as('n')).where('status', '=', 'active')
      .where('expires_at', '<=', weekAhead).executeTakeFirst(),
    db.selectFrom('ports as p').innerJoin('users as u', 'u.id', 'p.user_id')
      .select(['p.id', 'p.name', 'p.user_id', 'u.email', 'p.expires_at', 'p.auto_renew'])
      .where('p.status', '=', 'active').where('p.expires_at', '<=', weekAhead).orderBy('p.expires_at').limit(100).execute(),
    db.selectFrom('users').select([
      sql<string>`count(*)`.as('total'), sql<string>`count(*) filter (where created_at >= ${since})`.as('recent'),
    ]).where('role', '=', 'customer').executeTakeFirst(),
    db.selectNoFrom([
      sql<string>`(select count(*) from port_replacements where queued_since is not null)`.as('queued'),
      sql<string>`(select count(*) from modems where maintenance_since is not null and not retired)`.as('maintenance'),
    ]).executeTakeFirst(),
  ]);
  const dayMap = new Map(byDay.map((d) => [d.key, d]));
  const revenueByDay = Array.from({ length: days }, (_, i) => {
    const date = new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    const d = dayMap.get(date);
    return { date, amount: BigInt(d?.amount ?? 0).toString(), count: Number(d?.n ?? 0) };
  });
  return {
    days,
    revenueByDay,
    revenueByMethod: byMethod.map((m) => ({ provider: m.key, amount: BigInt(m.amount).toString(), count: Number(m.n) })),
    totalRevenue: byMethod.reduce((s, m) => s + BigInt(m.amount), 0n).toString(),
    balanceSpending: { amount: BigInt(spent[0]?.amount ?? 0).toString(), count: Number(spent[0]?.n ?? 0) },
    activePorts: Number(ports?.n ?? 0),
    freeStock: Number(stock?.n ?? 0),
    replacements: { queued: Number(replacements?.queued ?? 0), maintenance: Number(replacements?.maintenance ?? 0) },
    expiringThisWeek: {
      count: Number(expiringCount?.n ?? 0),
      items: expiring.map((p) => ({ id: p.id, name: p.name, userId: p.user_id, email: p.email, expiresAt: p.expires_at.toISOString(), autoRenew: p.auto_renew })),
    },
    customers: { total: Number(customers?.total ?? 0), newInPeriod: Number(customers?.recent ?? 0) },
  };
}
