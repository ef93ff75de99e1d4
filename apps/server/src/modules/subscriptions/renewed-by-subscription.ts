import type { Tx } from '../../db/database.js';

/** Whether a live card subscription (active or past_due, not set to end) renews this port when its period ends. */
export async function renewedByCardSubscription(tx: Tx, portId: string): Promise<boolean> {
  const row = await tx.selectFrom('card_subscriptions as s').innerJoin('payment_ports as pp', 'pp.payment_id', 's.order_id')
    .select('s.id').where('pp.port_id', '=', portId).where('s.status', 'in', ['active', 'past_due'])
    .where('s.cancel_at_period_end', '=', false).executeTakeFirst();
  return row !== undefined;
}
