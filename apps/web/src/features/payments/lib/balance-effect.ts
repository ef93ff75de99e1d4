import type { PaymentMethodId } from '../flow/payment-order';

/**
 * What paying an order does to the account balance, by method. Paying from the balance takes the total off it
 * (and may not cover it). Card, PayPal and crypto pay the order directly: the money received completes the order
 * and the balance stays as it is (a crypto deposit beyond the amount stays on the balance).
 */
export type BalanceEffect =
  | { method: 'balance'; balance: bigint | null; after: bigint | null; short: boolean }
  | { method: PaymentMethodId; balance: bigint | null; charged: bigint };

export function balanceEffect(method: PaymentMethodId | 'balance', total: bigint, balance: string | bigint | null): BalanceEffect {
  const before = balance === null ? null : BigInt(balance);
  if (method !== 'balance') return { method, balance: before, charged: total };
  const after = before === null ? null : before - total;
  return { method, balance: before, after, short: after !== null && after < 0n };
}
