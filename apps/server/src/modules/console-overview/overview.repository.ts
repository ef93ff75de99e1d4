import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/** A payment id as text, as `uuid::text` writes it: a reference that holds anything else matches no payment. */
const UUID_TEXT = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

export interface RevenueRow {
  /** UTC day of the payment, 'YYYY-MM-DD'. */
  day: string;
  provider: string;
  /** Net of refunds, micro-USD, as text. */
  amount: string;
  /** Payments not refunded in full. */
  n: string;
}

/**
 * Completed payments since `since`, each net of what went back to the customer, summed by UTC day and provider; the
 * overview adds the groups up. Provider 'balance' is usage: purchases and renewals paid from the balance, whose money
 * was already counted when it was topped up (issue 14, item 10: a $100 top-up spent $40 is $100 of revenue, not
 * $140). Every other provider is revenue: payments by an outside provider (top-ups and direct payments).
 * What went back to a payment (capped at its amount):
 * - the console refund (payment_refunds: to the balance or to the source);
 * - refunds the provider announced itself and we debited: PayPal Refunded/Reversed IPNs (`paypal-refund:<payment>:ipn:…`,
 *   kind paypal_refund) and Stripe charge.refunded (`card-refund:<intent>:<event>`, kind card_refund). The console's own
 *   provider debits are kind refund_out and already in payment_refunds, so nothing counts twice.
 * A payment refunded in full is not counted in `n`; it is still a payment on the payments page.
 *
 * One pass over the period's payments (Bitmap Index Scan of payments_created), summed as they are (`gross`); what went
 * back is taken off per group from the refunded payments alone (`back`: each found by its id, payments_pkey). Joining
 * every payment of the period to the refunds (`p.id::text`) and formatting each one's day cost 20–30 ms on 24,000
 * payments in 30 days; this costs 6 ms (decision 029).
 */
export async function netRevenue(db: Database, since: Date): Promise<RevenueRow[]> {
  const { rows } = await sql<RevenueRow>`
    with refunded as (
      select payment_id, sum(amount) as amount from (
        select payment_id::text as payment_id, amount from payment_refunds
        union all
        select split_part(reference, ':', 2), -amount from ledger_entries
          where kind = 'paypal_refund' and reference like 'paypal-refund:%'
        union all
        select o.id::text, -l.amount from ledger_entries l
          join payment_orders o on o.provider = 'card' and o.external_id = split_part(l.reference, ':', 2)
          where l.kind = 'card_refund' and l.reference like 'card-refund:%'
      ) r group by payment_id
    ), back as (
      select (p.created_at at time zone 'UTC')::date as day, p.provider, sum(least(p.amount, r.amount)) as amount,
        count(*) filter (where r.amount > 0 and r.amount >= p.amount) as n
      from refunded r
      join payments p on p.id = case when r.payment_id ~ ${UUID_TEXT} then r.payment_id::uuid end
      where p.status = 'completed' and p.created_at >= ${since}
      group by 1, 2
    ), gross as (
      select (created_at at time zone 'UTC')::date as day, provider, sum(amount) as amount, count(*) as n
      from payments where status = 'completed' and created_at >= ${since}
      group by 1, 2
    )
    select to_char(g.day, 'YYYY-MM-DD') as day, g.provider, (g.amount - coalesce(b.amount, 0))::text as amount,
      (g.n - coalesce(b.n, 0))::text as n
    from gross g left join back b on b.day = g.day and b.provider = g.provider`.execute(db);
  return rows;
}

/** The console overview's figures (decision 029: five queries, each one pass; overview.service.ts adds them up). */
export class OverviewRepository {
  constructor(private readonly db: Database) {}

  netRevenue(since: Date): Promise<RevenueRow[]> {
    return netRevenue(this.db, since);
  }

  /** Active ports once (Index Only Scan of ports_active_expiry): the count and those expiring by `weekAhead`. */
  activePorts(weekAhead: Date) {
    return this.db.selectFrom('ports').select([
      sql<string>`count(*)`.as('active'), sql<string>`count(*) filter (where expires_at <= ${weekAhead})`.as('expiring'),
    ]).where('status', '=', 'active').executeTakeFirst();
  }

  /** The first 100 active ports expiring by `weekAhead`, soonest first, with their customer's e-mail. */
  expiringPorts(weekAhead: Date) {
    return this.db.selectFrom('ports as p').innerJoin('users as u', 'u.id', 'p.user_id')
      .select(['p.id', 'p.name', 'p.user_id', 'u.email', 'p.expires_at', 'p.auto_renew'])
      .where('p.status', '=', 'active').where('p.expires_at', '<=', weekAhead).orderBy('p.expires_at').limit(100).execute();
  }

  /** The modems once: free stock (online, not in maintenance), maintenance, and the queued replacements. */
  stock() {
    return this.db.selectFrom('modems').select([
      sql<string>`coalesce(sum(capacity - used_slots) filter (where online and maintenance_since is null), 0)`.as('free'),
      sql<string>`count(*) filter (where maintenance_since is not null)`.as('maintenance'),
      sql<string>`(select count(*) from port_replacements where queued_since is not null)`.as('queued'),
    ]).where('retired', '=', false).executeTakeFirst();
  }

  /** The customers from their own partial index (users_customers_created): all, and those since `since`. */
  customers(since: Date) {
    return this.db.selectFrom('users').select([
      sql<string>`count(*)`.as('total'), sql<string>`count(*) filter (where created_at >= ${since})`.as('recent'),
    ]).where('role', '=', 'customer').executeTakeFirst();
  }
}
