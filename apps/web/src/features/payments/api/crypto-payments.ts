import type { Coin } from '@cellport/shared/constants';
import { apiDelete, apiPost } from '../../../lib/api';
import type { CryptoPendingResponse } from '@cellport/shared/schemas/payments';
import type { PaymentOrder } from '../flow/payment-order';
import { microToDollars } from '../lib/amounts';
import { orderFields } from './order-body';

/** POST /payment/crypto/pending: the pending crypto payment (one per customer; a new one cancels the previous). */
export async function createCryptoPayment(order: PaymentOrder, coin: Coin): Promise<CryptoPendingResponse['data']> {
  const response = await apiPost<CryptoPendingResponse>('/payment/crypto/pending', {
    amount: microToDollars(order.amount),
    provider: 'crypto',
    coin,
    ...orderFields(order),
  });
  return response.data;
}

/** DELETE /pending-payments/:id — cancels any pending payment of the customer. */
export const cancelPendingPayment = (id: string) => apiDelete<{ error: null }>(`/pending-payments/${encodeURIComponent(id)}`);

/** POST /pending-payments/:id/simulate — sandbox only: completes a pending crypto or PayPal payment offline. */
export const simulatePendingPayment = (id: string) => apiPost<unknown>(`/pending-payments/${encodeURIComponent(id)}/simulate`);
