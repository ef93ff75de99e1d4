import type { PaypalPendingResponse } from '@cellport/shared/schemas/payments';
import { apiPost } from '../../../lib/api';
import type { PaymentOrder } from '../flow/payment-order';
import { microToDollars } from '../lib/amounts';
import { orderFields } from './order-body';

export type PaypalPending = PaypalPendingResponse;

/** POST /payment/paypal/pending — records the PayPal payment (client_secret paypal_<id>) and returns the form. */
export async function createPaypalPayment(order: PaymentOrder, description: string): Promise<PaypalPending> {
  const r = await apiPost<PaypalPendingResponse>('/payment/paypal/pending', {
    amount: microToDollars(order.amount),
    description,
    ...orderFields(order),
  });
  return r;
}
