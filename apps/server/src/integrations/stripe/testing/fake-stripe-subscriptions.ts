import { createHmac } from 'node:crypto';
import type { RecordedStripeRequest, StripeReply } from './fake-stripe-api.js';

interface FakeSubscription {
  id: string;
  customer: string;
  status: string;
  cancel_at_period_end: boolean;
  current_period_end: number | null;
  default_payment_method: string | null;
  ended_at: number | null;
  metadata: Record<string, string>;
  unit_amount: number;
  interval_count: number;
  next_payment_attempt: number | null;
  /** The coupon the subscription was created with (Stripe's `discounts[0][coupon]`), if any. */
  coupon: FakeCoupon | null;
}

/** A coupon as POST /v1/coupons made it. */
interface FakeCoupon { id: string; amount_off: number; currency: string; duration: string; max_redemptions: number | null }

/** The cards the fake knows, as Stripe's test payment methods. */
const CARDS: Record<string, { brand: string; last4: string; customer: string | null }> = {
  pm_card_visa: { brand: 'visa', last4: '4242', customer: null },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', customer: null },
};

/**
 * Stripe's subscription API as a stateful fake, for `startFakeStripeApi`: create (default_incomplete, with the first
 * invoice's confirmation secret), retrieve with `expand[]` of default_payment_method and latest_invoice (the current
 * API's shape: the period on the subscription's items), update (cancel_at_period_end, default_payment_method) and
 * cancel (DELETE). Tests move it as Stripe would (`pay`, `failCharge`) and build the webhook Stripe would then
 * send (`event`), signed with the endpoint secret (`sign`).
 */
export class FakeStripeSubscriptions {
  readonly subs = new Map<string, FakeSubscription>();
  readonly coupons = new Map<string, FakeCoupon>();
  private seq = 0;

  constructor(private readonly webhookSecret: string) {}

  route(r: RecordedStripeRequest): StripeReply | undefined {
    const key = `${r.method} ${r.path}`;
    if (key === 'GET /v1/products/cellport-proxy-port') return { body: { id: 'cellport-proxy-port', object: 'product' } };
    if (key === 'POST /v1/coupons') {
      const coupon: FakeCoupon = {
        id: `coupon_fake${++this.seq}`, amount_off: Number(r.form.get('amount_off')), currency: r.form.get('currency') ?? '',
        duration: r.form.get('duration') ?? 'once', max_redemptions: r.form.has('max_redemptions') ? Number(r.form.get('max_redemptions')) : null,
      };
      this.coupons.set(coupon.id, coupon);
      return { body: { ...coupon, object: 'coupon' } };
    }
    if (key === 'POST /v1/subscriptions') {
      const couponId = r.form.get('discounts[0][coupon]');
      if (couponId !== null && !this.coupons.has(couponId)) {
        return { status: 400, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such coupon: '${couponId}'` } } };
      }
      const id = `sub_fake${++this.seq}`;
      const metadata: Record<string, string> = {};
      for (const [k, v] of r.form) { const m = /^metadata\[(.+)\]$/.exec(k); if (m) metadata[m[1]!] = v; }
      this.subs.set(id, {
        id, customer: r.form.get('customer') ?? '', status: 'incomplete', cancel_at_period_end: false, current_period_end: null,
        default_payment_method: null, ended_at: null, metadata,
        unit_amount: Number(r.form.get('items[0][price_data][unit_amount]')),
        interval_count: Number(r.form.get('items[0][price_data][recurring][interval_count]')), next_payment_attempt: null,
        coupon: couponId === null ? null : this.coupons.get(couponId)!,
      });
      return { body: { ...this.object(id, []), latest_invoice: { id: `in_${id}_1`, object: 'invoice', confirmation_secret: { client_secret: `pi_${id}_secret_first`, type: 'payment_intent' } } } };
    }
    const m = /^\/v1\/subscriptions\/([^/]+)$/.exec(r.path);
    const sub = m ? this.subs.get(m[1]!) : undefined;
    if (!m) return undefined;
    if (!sub) return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such subscription: '${m[1]}'` } } };
    const expand = [...r.query.getAll('expand[]'), ...r.query.getAll('expand[0]'), ...r.query.getAll('expand[1]'), ...r.form.getAll('expand[0]'), ...r.form.getAll('expand[1]')];
    if (r.method === 'GET') return { body: this.object(sub.id, expand) };
    if (r.method === 'POST') {
      if (sub.status === 'canceled') return { status: 400, body: { error: { type: 'invalid_request_error', message: 'A canceled subscription can only update its cancellation_details and metadata.' } } };
      const cancel = r.form.get('cancel_at_period_end');
      if (cancel !== null) sub.cancel_at_period_end = cancel === 'true';
      const pm = r.form.get('default_payment_method');
      if (pm !== null) {
        if (!CARDS[pm]) return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such PaymentMethod: '${pm}'` } } };
        sub.default_payment_method = pm;
      }
      return { body: this.object(sub.id, expand) };
    }
    if (r.method === 'DELETE') {
      sub.status = 'canceled';
      sub.ended_at = Math.floor(Date.now() / 1000);
      sub.cancel_at_period_end = false;
      return { body: this.object(sub.id, expand) };
    }
    return undefined;
  }

  /**
   * What Stripe's invoice of this subscription charges: the price less its coupon's amount, on the first invoice only
   * for a `duration: 'once'` coupon, on every one for 'forever' (the fake knows no 'repeating').
   */
  invoiceAmount(id: string, first: boolean): number {
    const s = this.subs.get(id)!;
    const off = s.coupon && (first || s.coupon.duration === 'forever') ? s.coupon.amount_off : 0;
    return Math.max(0, s.unit_amount - off);
  }

  /** The first invoice paid in the browser: active, the card saved on the subscription, the period running. */
  pay(id: string, paymentMethod = 'pm_card_visa', periodEnd = Math.floor(Date.now() / 1000) + 30 * 86_400): void {
    const sub = this.subs.get(id)!;
    sub.status = 'active';
    sub.default_payment_method = paymentMethod;
    sub.current_period_end = periodEnd;
  }

  /** A renewal the card refused: the period moved on, past_due with Stripe's next retry. */
  failCharge(id: string, nextAttempt: number): void {
    const sub = this.subs.get(id)!;
    sub.status = 'past_due';
    sub.current_period_end = (sub.current_period_end ?? 0) + sub.interval_count * 86_400;
    sub.next_payment_attempt = nextAttempt;
  }

  /** The subscription as Stripe answers it (its object as of now), with the expansions asked for. */
  object(id: string, expand: string[]): Record<string, unknown> {
    const s = this.subs.get(id)!;
    const card = s.default_payment_method ? CARDS[s.default_payment_method] : undefined;
    return {
      id: s.id, object: 'subscription', customer: s.customer, status: s.status, cancel_at_period_end: s.cancel_at_period_end,
      metadata: s.metadata, ended_at: s.ended_at, canceled_at: s.ended_at,
      items: { object: 'list', data: [{ id: `si_${s.id}`, object: 'subscription_item', current_period_end: s.current_period_end, price: { unit_amount: s.unit_amount, recurring: { interval: 'day', interval_count: s.interval_count } } }] },
      default_payment_method: expand.includes('default_payment_method') && card
        ? { id: s.default_payment_method, object: 'payment_method', type: 'card', card: { brand: card.brand, last4: card.last4 } }
        : s.default_payment_method,
      latest_invoice: expand.includes('latest_invoice')
        ? { id: `in_${s.id}_latest`, object: 'invoice', next_payment_attempt: s.next_payment_attempt }
        : `in_${s.id}_latest`,
    };
  }

  /** A webhook delivery as Stripe sends it: the event's JSON and its Stripe-Signature header. */
  event(eventId: string, type: string, object: Record<string, unknown>): { payload: string; headers: Record<string, string> } {
    const payload = JSON.stringify({ id: eventId, object: 'event', type, created: Math.floor(Date.now() / 1000), data: { object } });
    return { payload, headers: { 'content-type': 'application/json', 'stripe-signature': this.sign(payload) } };
  }

  sign(payload: string, secret = this.webhookSecret): string {
    const ts = Math.floor(Date.now() / 1000);
    return `t=${ts},v1=${createHmac('sha256', secret).update(`${ts}.${payload}`).digest('hex')}`;
  }

  /** invoice.paid / invoice.payment_failed of this subscription, in the current API's shape. */
  invoice(id: string, invoiceId: string, amountCents: number, billingReason: string, paid: boolean): Record<string, unknown> {
    const s = this.subs.get(id)!;
    return {
      id: invoiceId, object: 'invoice', customer: s.customer, currency: 'usd', billing_reason: billingReason,
      amount_paid: paid ? amountCents : 0, amount_due: amountCents, metadata: {},
      parent: { type: 'subscription_details', subscription_details: { subscription: id, metadata: s.metadata } },
    };
  }
}
