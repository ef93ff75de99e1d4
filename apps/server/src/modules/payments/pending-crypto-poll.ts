import { bumpPollVersion } from '../../lib/poll-versions.js';
import type { Tx } from '../../db/database.js';
import { cryptoToApi, type OrderRow } from './order-view.js';
import type { OrdersRepository } from './orders.repository.js';

/** The realtime actions of 'pending_crypto_payment' (spec §4): add sets it, update merges data, cancel clears it. */
export type PendingCryptoAction = 'add' | 'update' | 'cancel';

/**
 * Every write that changes what GET /api/v1/pending-crypto-payment-active returns calls this inside its own
 * transaction: the customer's 'pendingCrypto' poll version moves at commit (so an unchanged poll is answered 304
 * from memory, docs/decisions/012-realtime.md) and the 'pending_crypto_payment' event reaches their sockets with it.
 * 'cancel' covers every way a payment stops being the active one — cancelled, replaced, expired or completed; the
 * payment's status says which. Orders of other providers are ignored, so callers need not check.
 */
export async function announcePendingCrypto(orders: OrdersRepository, tx: Tx, action: PendingCryptoAction, order: OrderRow): Promise<void> {
  if (order.provider !== 'crypto' || !order.coin || !order.address) return;
  const payment = cryptoToApi(order, await orders.names([order], tx));
  await bumpPollVersion(tx, 'pendingCrypto', order.user_id, { event: { name: 'pending_crypto_payment', data: { action, payment } } });
}
