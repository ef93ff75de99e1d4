import { ADMIN_LIMITS } from '@cellport/shared/schemas/admin/common';
import { type OverviewResponse } from '@cellport/shared/schemas/admin/overview';
import type { OverviewRepository, RevenueRow } from './overview.repository.js';

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
 * payments), in micro-USD, by UTC day and by method, net of refunds (overview.repository.ts, netRevenue). What customers spent from their
 * balance is usage, shown apart (balanceSpending), never added to revenue. Stock counts online modems.
 *
 * Five queries, each one pass (decision 029, with the plans measured on 100,000 customers): the period's payments
 * once (by day and provider, added up here), the active ports once (Index Only Scan of ports_active_expiry for the
 * count and those expiring this week), the first 100 expiring, the modems once (free stock, maintenance, and the
 * queued replacements), the customers from their own partial index (users_customers_created).
 */
export async function overview(repo: OverviewRepository, days: number, now = new Date()): Promise<OverviewResponse> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const since = new Date(today - (days - 1) * DAY_MS);
  const weekAhead = new Date(now.getTime() + ADMIN_LIMITS.expiringSoonDays * DAY_MS);
  const [revenue, ports, expiring, stock, customers] = await Promise.all([
    repo.netRevenue(since), repo.activePorts(weekAhead), repo.expiringPorts(weekAhead), repo.stock(), repo.customers(since),
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
