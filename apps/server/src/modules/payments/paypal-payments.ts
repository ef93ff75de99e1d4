import type { Language } from '@cellport/shared';
import type { PaypalPendingResponse } from '@cellport/shared/schemas/payments';
import type { AppContext } from '../../context.js';
import type { IpnOutcome } from '../../integrations/paypal/check-ipn.js';
import { IpnVerificationError } from '../../integrations/paypal/ipn-verifier.js';
import { AppError } from '../../lib/app-error.js';
import type { Fulfilment } from './fulfilment.js';
import { microToCentsUp, type OrderInput, type OrderPricing } from './order-pricing.js';
import type { OrderRow, OrdersRepository } from './orders.repository.js';
import type { OrdersService } from './orders.service.js';
import type { PaymentsRepository } from './payments.repository.js';
import type { PaymentsRuntime } from './payments-runtime.js';
import { paypalIpnRefundReference } from './refund-references.js';

const CENT = 10_000n;
export const PAYPAL_SECRET_PREFIX = 'paypal_';
export const IPN_PATH = '/api/v1/payment/paypal/ipn';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * PayPal IPN: post the raw body back to PayPal for validation, check it against our record of the payment (receiver,
 * currency, amount, status) and credit once per txn_id; Refunded/Reversed take the money back once per txn_id, and not
 * at all when the operator already refunded the payment from the console (the shared `paypal-refund:<order>:` family).
 * Offline sandbox completion produces the same outcome and goes through `apply`.
 */
export interface PayPalPaymentsDeps {
  orderRows: OrdersRepository;
  orders: OrdersService;
  payments: PaymentsRepository;
  pricing: OrderPricing;
  rt: PaymentsRuntime;
  fulfilment: Fulfilment;
  /** The log and the public URL. */
  ctx: AppContext;
  /** The receiving PayPal account: the operator's setting, else the configured one. */
  receiver: () => Promise<string>;
}

export class PayPalPayments {
  private readonly orderRows: OrdersRepository;
  private readonly orders: OrdersService;
  private readonly payments: PaymentsRepository;
  private readonly pricing: OrderPricing;
  private readonly rt: PaymentsRuntime;
  private readonly fulfilment: Fulfilment;
  private readonly ctx: AppContext;
  private readonly receiver: () => Promise<string>;

  constructor(deps: PayPalPaymentsDeps) {
    this.orderRows = deps.orderRows;
    this.orders = deps.orders;
    this.payments = deps.payments;
    this.pricing = deps.pricing;
    this.rt = deps.rt;
    this.fulfilment = deps.fulfilment;
    this.ctx = deps.ctx;
    this.receiver = deps.receiver;
  }

  /**
   * A pending PayPal payment and the checkout form that pays it. A top-up may carry the customer's own description.
   * `topUp` is the amount in micro-USD (a top-up only).
   */
  async createPending(userId: string, input: OrderInput & { description?: string | null | undefined }, topUp: bigint | null, lng: Language): Promise<PaypalPendingResponse> {
    if (!this.rt.paypal.enabled) throw new AppError('PAYMENT_METHOD_DISABLED');
    const quote = await this.pricing.quote(userId, input, topUp, lng);
    const description = quote.kind === 'topup' && input.description?.trim() ? input.description.trim() : quote.description;
    const cents = microToCentsUp(quote.amount);
    const order = await this.orders.create({ userId, provider: 'paypal', quote: { ...quote, description }, providerAmount: cents, lng });
    const clientSecret = `${PAYPAL_SECRET_PREFIX}${order.id}`;
    const form = this.rt.paypal.checkoutForm({
      itemName: description, amountCents: Number(cents), custom: clientSecret, orderId: order.id, origin: this.ctx.config.publicUrl, notifyPath: IPN_PATH,
      receiverEmail: await this.receiver(),
    });
    return {
      error: null,
      data: {
        _id: order.id, amount: order.amount.toString(), provider: 'Paypal' as const, tariff_id: quote.details.tariff_id,
        country_id: quote.details.country_id, basket: quote.details.basket, description, client_secret: clientSecret, modemCount: quote.details.modemCount,
      },
      form,
    };
  }

  /** 'Simulate payment' of a pending PayPal order: the sandbox's IPN outcome, applied as a real one would be. */
  async simulate(order: OrderRow): Promise<void> {
    await this.apply(order, this.rt.paypal.simulate({ custom: `${PAYPAL_SECRET_PREFIX}${order.id}`, amountCents: Number(order.provider_amount) }));
  }

  async receiveIpn(rawBody: Buffer): Promise<void> {
    const fields = this.rt.paypal.parse(rawBody);
    if (!fields) throw new AppError('VALIDATION');
    const order = await this.orderFor(fields.custom);
    if (!order) {
      this.ctx.log.warn({ txn: fields.txn_id ?? null, custom: fields.custom ?? null }, 'PayPal IPN for no payment of ours; nothing booked');
      return;
    }
    let verification;
    try {
      verification = await this.rt.paypal.verify(rawBody);
    } catch (err) {
      if (err instanceof IpnVerificationError) {
        this.ctx.log.warn({ err }, 'PayPal IPN could not be validated now; PayPal will resend it');
        throw new AppError('INTERNAL', 503, 'PayPal validation is unavailable; retry later');
      }
      throw err;
    }
    const receiver = await this.receiver();
    await this.apply(order, this.rt.paypal.check(verification, fields, Number(order.provider_amount), receiver));
  }

  async apply(order: { id: string; user_id: string }, outcome: IpnOutcome): Promise<void> {
    if (outcome.action === 'ignore') {
      this.ctx.log.warn({ order: order.id, txn: outcome.txnId, reason: outcome.reason }, 'PayPal IPN ignored; nothing booked');
      return;
    }
    if (outcome.action === 'credit') {
      await this.fulfilment.settleNow({
        userId: order.user_id, orderId: order.id, coin: 'usdt', amount: BigInt(outcome.amountCents) * CENT,
        reference: `paypal:${outcome.txnId}`, kind: 'paypal',
      });
      return;
    }
    const amount = BigInt(outcome.amountCents) * CENT;
    const taken = await this.payments.transaction(async (tx) => {
      // The console refund locks the same payment row first, so the two paths see each other's bookings.
      await this.payments.lockPayment(tx, order.id);
      const reference = paypalIpnRefundReference(order.id, outcome.txnId);
      // `paypal:<txn>` is where refunds were booked before the shared family: a redelivery of one of those is a replay too.
      if (await this.payments.isAnyBooked(tx, [reference, `paypal:${outcome.txnId}`])) return false;
      const consoleRefund = await this.payments.providerRefund(tx, order.id);
      if (consoleRefund) {
        // The operator already sent this money back from the console and debited it: this IPN is that refund
        // arriving from PayPal. Nothing more is taken (a redelivery lands here again and changes nothing either).
        this.ctx.log.warn({ order: order.id, txn: outcome.txnId, ipnAmount: String(amount), consoleAmount: String(consoleRefund.amount) },
          'PayPal refund IPN for a payment already refunded from the console; nothing more taken');
        return false;
      }
      return this.fulfilment.takeBack(tx, { userId: order.user_id, amount, reference, kind: 'paypal_refund' });
    });
    if (taken) await this.fulfilment.announce(order.user_id, { credited: true, completed: null });
  }

  private async orderFor(custom: string | undefined) {
    if (!custom?.startsWith(PAYPAL_SECRET_PREFIX)) return undefined;
    const id = custom.slice(PAYPAL_SECRET_PREFIX.length);
    if (!UUID.test(id)) return undefined;
    return this.orderRows.paypalOrder(id);
  }
}
