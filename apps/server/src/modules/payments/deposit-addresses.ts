import type { Coin } from '@cellport/shared/schemas/payments';
import type { AppContext } from '../../context.js';
import { addressIndex } from './payments.repository.js';
import { paymentsRuntime } from './payments-runtime.js';

/** The account's own deposit address per coin (derived from the operator's extended public keys; no private key here). */
export async function depositAddresses(ctx: AppContext, userId: string): Promise<Record<Coin, string>> {
  const rt = paymentsRuntime(ctx);
  const index = await addressIndex(ctx.db, userId);
  return { btc: rt.btc.depositAddress(index), usdt: rt.usdt.depositAddress(index) };
}
