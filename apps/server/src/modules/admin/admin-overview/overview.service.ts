import { sql } from 'kysely';
import { ADMIN_LIMITS } from '@cellport/shared/schemas/admin/common';
import { type OverviewResponse } from '@cellport/shared/schemas/admin/overview';
import type { Database } from '../../../db/database.js';
import { netRevenue, type RevenueRow } from './net-revenue.js';

const DAY_MS = 86_400_000;

/** Adds up net revenue groups by a key: amount (micro-USD) and the payments not refunded in full. */
function addUp(rows: RevenueRow[], key: (r: RevenueRow) => string): Map<string, { amount: bigint; n: number }> {
  const out = new Map<string, { amount: bigint; n: number }>();
  for (const r of rows) {
    const k = key(r);
    const sum = out.get(k) ?? { amount: 0n, n: 0 };
    out.set(k, { amount: sum.amount + BigInt(r.amount), n: sum.n + Number(r.n) });
  }
  return out;
}

/**
 * The console's front page. Revenue = money received: completed payments by an outside provider (top-ups and direct
 * payments), in micro-USD, by UTC day and by method, net of refunds (net-revenue.ts). What customers spent from their
 * balance is usage, shown apart (balanceSpending), never added to revenue. Stock counts online modems.
 *
 * Five queries, each one pass (decision 029, with the plans measured on 100,000 customers): the period's payments
 * once (by day and provider, added up here), the active ports once (Index Only Scan of ports_active_expiry for the
 * count and those expiring this week), the first 100 expiring, the modems once (free stock, maintenance, and the
 * queued replacements), the customers from their own partial index (users_customers_created).
 */
export async function overview(db: Database, days: number, now = new Date()): Promise<OverviewResponse> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const since = new Date(today - (days - 1) * DAY_MS);
  const weekAhead = new Date(now.getTime() + ADMIN_LIMITS.expiringSoonDays * DAY_MS);
  const [revenue, ports, expiring, stock, customers] = await Promise.all([
    netRevenue(db, since),
    db.selectFrom('ports').select([
      sql<string>`count(*)`.as('active'), sql<string>`count(*) filter (where expires_at <= ${weekAhead})`.as('expiring'),
    ]).where('status', '=', 'active').executeTakeFirst(),
    db.selectFrom('ports as p').innerJoin('users as u', 'u.id', 'p.user_id')
      .select(['p.id', 'p.name', 'p.user_id', 'u.email', 'p.expires_at', 'p.auto_renew'])
      .where('p.status', '=', 'active').where('p.expires_at', '<=', weekAhead).orderBy('p.expires_at').limit(100).execute(),
    db.selectFrom('modems').select([
      sql<string>`coalesce(sum(capacity - used_slots) filter (where online and maintenance_since is null), 0)`.as('free'),
      sql<string>`count(*) filter (where maintenance_since is not null)`.as('maintenance'),
      sql<string>`(select count(*) from port_replacements where queued_since is not null)`.as('queued'),
    ]).where('retired', '=', false).executeTakeFirst(),
    db.selectFrom('users').select([
      sql<string>`count(*)`.as('total'), sql<string>`count(*) filter (where created_at >= ${since})`.as('recent'),
    ]).where('role', '=', 'customer').executeTakeFirst(),
  ]);
  const received = revenue.filter((r) => r.provider !== 'balance');
  const dayMap = addUp(received, (r) => r.day);
  const revenueByDay = Array.from({ length: days }, (_, i) => {
    const date = new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    const d = dayMap.get(date);
    return { date, amount: (d?.amount ?? 0n).toString(), count: d?.n ?? 0 };
  });
  // Largest first; equal amounts by provider name.
  const byMethod = [...addUp(received, (r) => r.provider)]
    .sort(([ka, a], [kb, b]) => (a.amount === b.amount ? (ka < kb ? -1 : ka > kb ? 1 : 0) : a.amount > b.amount ? -1 : 1));
  const spent = addUp(revenue.filter((r) => r.provider === 'balance'), () => 'all').get('all');
  return {
    days,
    revenueByDay,
    revenueByMethod: byMethod.map(([provider, m]) => ({ provider, amount: m.amount.toString(), count: m.n })),
    totalRevenue: byMethod.reduce((s, [, m]) => s + m.amount, 0n).toString(),
    balanceSpending: { amount: (spent?.amount ?? 0n).toString(), count: spent?.n ?? 0 },
    activePorts: Number(ports?.active ?? 0),
    freeStock: Number(stock?.free ?? 0),
    replacements: { queued: Number(stock?.queued ?? 0), maintenance: Number(stock?.maintenance ?? 0) },
    expiringThisWeek: {
      count: Number(ports?.expiring ?? 0),
      items: expiring.map((p) => ({ id: p.id, name: p.name, userId: p.user_id, email: p.email, expiresAt: p.expires_at.toISOString(), autoRenew: p.auto_renew })),
    },
    customers: { total: Number(customers?.total ?? 0), newInPeriod: Number(customers?.recent ?? 0) },
  };
}
