import { sql } from 'kysely';
import type { Database } from '../../../db/database.js';

export interface RevenueRow { key: string; amount: string; n: string }

/**
 * Completed payments since `since`, each net of what went back to the customer, summed by UTC day or by method.
 * `money: 'received'` is revenue: payments by an outside provider (top-ups and direct payments). `money: 'balance'`
 * is usage: purchases and renewals paid from the balance, whose money was already counted when it was topped up
 * (issue 14, item 10: a $100 top-up spent $40 is $100 of revenue, not $140).
 * What went back to a payment (capped at its amount):
 * - the console refund (payment_refunds: to the balance or to the source);
 * - refunds the provider announced itself and we debited: PayPal Refunded/Reversed IPNs (`paypal-refund:<payment>:ipn:…`,
 *   kind paypal_refund) and Stripe charge.refunded (`card-refund:<intent>:<event>`, kind card_refund). The console's own
 *   provider debits are kind refund_out and already in payment_refunds, so nothing counts twice.
 * A payment refunded in full is not counted in `n`; it is still a payment on the payments page.
 */
export async function netRevenue(db: Database, since: Date, by: 'day' | 'provider' | 'all', money: 'received' | 'balance' = 'received'): Promise<RevenueRow[]> {
  const key = by === 'day' ? sql`to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD')` : by === 'provider' ? sql`p.provider` : sql`'all'`;
  const which = money === 'balance' ? sql`p.provider = 'balance'` : sql`p.provider <> 'balance'`;
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
    ), net as (
      select ${key} as key, p.amount - least(p.amount, coalesce(r.amount, 0)) as amount,
        coalesce(r.amount, 0) > 0 and r.amount >= p.amount as fully_refunded
      from payments p left join refunded r on r.payment_id = p.id::text
      where p.status = 'completed' and p.created_at >= ${since} and ${which}
    )
    select key, sum(amount)::text as amount, (count(*) filter (where not fully_refunded))::text as n
    from net group by key order by sum(amount) desc, key`.execute(db);
  return rows;
}
