import type { AppContext } from '../../context.js';
import type { IpnOutcome } from '../../integrations/paypal/check-ipn.js';
import { IpnVerificationError } from '../../integrations/paypal/ipn-verifier.js';
import { effectivePayPalReceiver } from '../admin/admin-settings/operator-settings-cache.js';
import { AppError } from '../../lib/app-error.js';
import type { Fulfilment } from './fulfilment.js';
import type { PaymentsRuntime } from './payments-runtime.js';
import { paypalIpnRefundReference } from './refund-references.js';

const CENT = 10_000n;
export const PAYPAL_SECRET_PREFIX = 'paypal_';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * PayPal IPN: post the raw body back to PayPal for validation, check it against our record of the payment (receiver,
 * currency, amount, status) and credit once per txn_id; Refunded/Reversed take the money back once per txn_id, and not
 * at all when the operator already refunded the payment from the console (the shared `paypal-refund:<order>:` family).
 * Offline sandbox completion produces the same outcome and goes through `apply`.
 */
export class PayPalPayments {
  constructor(private readonly ctx: AppContext, private readonly rt: PaymentsRuntime, private readonly fulfilment: Fulfilment) {}

  async receiveIpn(rawBody: Buffer): Promise<void> {
    const fields = this.rt.paypal.parse(rawBody);
    if (!fields) throw new AppError('VALIDATION', 400);
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
    const receiver = await effectivePayPalReceiver(this.ctx);
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
    const taken = await this.ctx.db.transaction().execute(async (tx) => {
      // The console refund locks the same payment row first, so the two paths see each other's bookings.
      await tx.selectFrom('payments').select('id').where('id', '=', order.id).forUpdate().executeTakeFirst();
      const reference = paypalIpnRefundReference(order.id, outcome.txnId);
      // `paypal:<txn>` is where refunds were booked before the shared family: a redelivery of one of those is a replay too.
      const seen = await tx.selectFrom('ledger_entries').select('id').where('reference', 'in', [reference, `paypal:${outcome.txnId}`]).executeTakeFirst();
      if (seen) return false;
      const consoleRefund = await tx.selectFrom('payment_refunds').select(['amount', 'method']).where('payment_id', '=', order.id)
        .where('method', '<>', 'balance').executeTakeFirst();
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
    return this.ctx.db.selectFrom('payment_orders').selectAll().where('id', '=', id).where('provider', '=', 'paypal').executeTakeFirst();
  }
}
