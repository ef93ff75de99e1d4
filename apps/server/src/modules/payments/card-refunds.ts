import type { Tx } from '../../db/database.js';
import type { LedgerService } from '../ledger/index.js';
import type { Fulfilment } from './fulfilment.js';
import type { PaymentsRepository } from './payments.repository.js';
import { cardConsoleRefundReference, cardRefundFamily } from './refund-references.js';

export interface CardRefundReport {
  userId: string;
  /** The payment intent the refund belongs to: its `card-refund:<intent>:` family holds every refund of it. */
  intent: string;
  /** Our payment (the order's id), when there is one: its row is the lock both reporting sides queue on. */
  paymentId: string | null;
  /**
   * What the provider says was refunded on the intent in total (Stripe's charge.refunded is cumulative), and the
   * reference to book the part not booked yet under; null when the console reports only its own refund.
   */
  event: { refundedTotal: bigint; reference: string } | null;
}

/**
 * One card refund is one ledger movement, whichever side reports it first: the console (after the provider answered
 * its refund call) or the provider's charge.refunded event (which may come before that answer, while it is being
 * recorded, after, or many times at once). Both sides call `book` in their own transaction, and neither calls the
 * provider inside it:
 * - they queue on the payment's row lock (then the customer's balance row), so each sees what the other committed;
 * - a console refund is claimed (its payment_refunds row) BEFORE the provider is called; whoever books first books
 *   the claim under its one reference `card-refund:<intent>:admin:<payment>` (unique in the ledger), the other finds
 *   it booked;
 * - an event then takes only what the family does not hold yet of the provider's refunded total (a refund made in
 *   Stripe's dashboard), under its own event reference.
 * Nothing is taken below zero (Fulfilment.takeBack): a shortfall is logged for the operator.
 */
export class CardRefunds {
  constructor(
    private readonly payments: PaymentsRepository,
    private readonly ledger: LedgerService,
    private readonly fulfilment: Fulfilment,
  ) {}

  /** Returns whether money moved. */
  async book(tx: Tx, report: CardRefundReport): Promise<boolean> {
    const payment = report.paymentId ? await this.payments.lockPayment(tx, report.paymentId) : undefined;
    // Without a payment row (a subscription's monthly charge) the balance row is the one lock both sides share.
    await this.payments.lockUsdtBalance(tx, report.userId);
    let moved = false;
    const claim = payment ? await this.payments.providerRefund(tx, payment.id) : undefined;
    if (payment && claim?.method === 'provider') moved = await this.bookClaim(tx, report, payment, claim.amount);
    if (report.event) {
      const missing = report.event.refundedTotal - await this.payments.takenInFamily(tx, cardRefundFamily(report.intent));
      if (missing > 0n) {
        moved = await this.fulfilment.takeBack(tx, { userId: report.userId, amount: missing, reference: report.event.reference, kind: 'card_refund' }) || moved;
      }
    }
    return moved;
  }

  /**
   * The provider refused the console's refund: the claim goes, unless an event booked it meanwhile (the refund went
   * through and only the answer was lost). Returns whether it was withdrawn.
   */
  async withdraw(tx: Tx, claimId: string, intent: string, paymentId: string): Promise<boolean> {
    await this.payments.lockPayment(tx, paymentId);
    if (await this.payments.isBooked(tx, cardConsoleRefundReference(intent, paymentId))) return false;
    await this.payments.deleteRefund(tx, claimId);
    return true;
  }

  /**
   * The console's refund: a purchase is first reversed onto the balance (`refund:<payment>`), then the money leaves
   * to the card. Booked once: a second caller finds the reference.
   */
  private async bookClaim(tx: Tx, report: CardRefundReport, payment: { id: string; kind: string }, amount: bigint): Promise<boolean> {
    const reference = cardConsoleRefundReference(report.intent, payment.id);
    if (await this.payments.isBooked(tx, reference)) return false;
    const base = { userId: report.userId, coin: 'usdt' as const, amount, paymentId: payment.id };
    if (payment.kind !== 'topup') await this.ledger.credit(tx, { ...base, kind: 'refund', reference: `refund:${payment.id}` });
    return this.fulfilment.takeBack(tx, { ...base, reference, kind: 'refund_out' });
  }
}
