import type { CreatePaymentIntentResponse, CreateSubscriptionResponse } from '@cellport/shared/schemas/payments';
import { apiPost } from '../../../lib/api';
import type { PaymentOrder } from '../flow/payment-order';
import { microToCents } from '../lib/amounts';
import { orderFields } from './order-body';

/** `reference`: the payment intent id, by which the payment's state can be asked (GET /payment/orders/:reference). */
export interface CardSecret { clientSecret: string; email: string; reference: string }

/** The intent id inside a client secret (`pi_…_secret_…`). */
const intentIdOf = (clientSecret: string) => clientSecret.split('_secret_')[0] ?? clientSecret;

/** The body of every card payment call: the amount in cents (spec §5) and the order's fields. */
export const cardPaymentBody = (order: PaymentOrder) => ({ amount: microToCents(order.amount), ...orderFields(order) });

/** POST /payment/stripe/create-payment-intent — a one-time card payment; the amount in cents (spec §5). */
export async function createPaymentIntent(order: PaymentOrder): Promise<CardSecret> {
  const r = await apiPost<CreatePaymentIntentResponse>(
    '/payment/stripe/create-payment-intent', cardPaymentBody(order));
  return { clientSecret: r.payment_intent.client_secret, email: r.email, reference: r.payment_intent.id };
}

/** POST /payment/stripe/create-subscription — monthly tariffs with recurring enabled only; `error` set otherwise. */
export async function createSubscription(order: PaymentOrder): Promise<CardSecret> {
  const r = await apiPost<CreateSubscriptionResponse>(
    '/payment/stripe/create-subscription', cardPaymentBody(order));
  if (r.error || !r.clientSecret) throw new Error(r.error ?? 'The subscription could not be started.');
  return { clientSecret: r.clientSecret, email: r.email, reference: intentIdOf(r.clientSecret) };
}

export interface SandboxCard { cardNumber: string; expiry: string; cvc: string }

/** POST /payment/stripe/sandbox/confirm — the offline card provider; 402 CARD_DECLINED for a declined test card. */
export const confirmSandboxCard = (clientSecret: string, card: SandboxCard) =>
  apiPost<{ status: string }>('/payment/stripe/sandbox/confirm', { clientSecret, ...card });
