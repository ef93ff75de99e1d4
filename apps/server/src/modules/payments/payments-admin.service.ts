import type {
  AdminPaymentDetailResponse, AdminPaymentsQuery, AdminPaymentsResponse, CompletePaymentResponse, RefundRequest,
  RefundResponse,
} from '@cellport/shared/schemas/admin/payments';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import type { CardProvider } from '../../integrations/stripe/card-provider.js';
import { AppError } from '../../lib/app-error.js';
import { TOPICS } from '../../lib/bus-topics.js';
import { paging } from '../../lib/console-http.js';
import type { AuditActor, AuditLog } from '../audit/index.js';
import type { LedgerService } from '../ledger/index.js';
import type { CardRefunds } from './card-refunds.js';
import type { Fulfilment } from './fulfilment.js';
import type { AdminPaymentsRepository, RefundRow } from './payments-admin.repository.js';
import { cardRefundFamily, likeFamily, paypalConsoleRefundReference, paypalRefundFamily } from './refund-references.js';
import { MICRO_PER_CENT, toRefund } from './refunds.js';

interface BookedRefund { userId: string; refund: RefundRow }
/** A card refund claimed in the console, to be sent through the provider. */
interface CardRefundClaim {
  claim: RefundRow;
  intent: string;
  userId: string;
  to: 'balance' | 'source';
  before: { status: string; amount: bigint; provider: string };
}

/**
 * Payments across providers for operators: search, details, refunds and manual completion.
 *
 * Refund bookkeeping (always ledger entries, once per payment — payment_refunds.payment_id is unique and the payment
 * row is locked first, so a second or concurrent refund gets REFUND_EXISTS):
 * - to 'balance': one credit `refund:<paymentId>`.
 * - to 'source' of a top-up: one debit of the topped-up money (refused when the balance no longer holds it).
 * - to 'source' of a purchase/renewal: the purchase is reversed onto the balance (credit `refund:<paymentId>`) and the
 *   money leaves to the source (debit), so the balance nets to what it was.
 * Card refunds go through the card provider, never inside a transaction: the refund is claimed (its payment_refunds
 * row) and committed, the provider is called, then the claim is booked under `card-refund:<intent>:admin:<payment>` —
 * by the console or by the provider's charge.refunded event, whichever comes first; the other finds it booked
 * (modules/payments/card-refunds.ts). PayPal refunds
 * (made by the operator at PayPal) debit `paypal-refund:<paymentId>:admin`; the later Refunded IPN sees the console refund
 * and takes nothing more. The other way round — the provider's notification booked first — the console refund is
 * refused with REFUND_DONE_BY_PROVIDER (modules/payments/refund-references.ts).
 */
export class PaymentsAdminService {
  constructor(
    private readonly ctx: AppContext,
    private readonly audit: AuditLog,
    private readonly repo: AdminPaymentsRepository,
    private readonly ledger: LedgerService,
    /** The payments module's fulfilment: manual completion settles an order as a provider's notification would. */
    private readonly fulfilment: Fulfilment,
    /** Books a card refund once, whether the console or the provider's event reports it first. */
    private readonly cardRefunds: CardRefunds,
    /** The card provider refunds go through (null: card payments are off). */
    private readonly card: CardProvider | null,
  ) {}

  async search(query: AdminPaymentsQuery): Promise<AdminPaymentsResponse> {
    const page = paging(query);
    return { ...await this.repo.search(query, page), page: page.page, pageSize: page.pageSize };
  }

  async detail(id: string): Promise<AdminPaymentDetailResponse> {
    const payment = await this.repo.byId(id);
    if (!payment) throw new AppError('PAYMENT_NOT_FOUND');
    const [ledger, refunds, ports, order] = await Promise.all([
      this.ledger.paymentEntries(payment.userId, id), this.repo.refunds(id), this.repo.ports(id), this.repo.order(id),
    ]);
    return {
      payment,
      details: order ? JSON.parse(JSON.stringify(order, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))) as Record<string, unknown> : {},
      ledger, refunds: refunds.map(toRefund), ports,
    };
  }

  async refund(actor: AuditActor, id: string, req: RefundRequest): Promise<RefundResponse> {
    const started = await this.repo.refundTransaction((tx) => this.startRefund(tx, actor, id, req));
    const row = 'card' in started ? await this.refundByCard(actor, started.card) : started.row;
    await this.ctx.bus.publish(TOPICS.balanceChanged, { userId: row.userId }).catch(() => {});
    return { refund: toRefund(row.refund), payment: (await this.repo.byId(id))! };
  }

  /**
   * Checks the refund under the payment's row lock and books it, all in the caller's transaction — except a refund
   * through the card provider, which is only claimed here (its payment_refunds row): the provider is called after
   * this transaction commits, and the money moves once it answered or its event came (refundByCard).
   */
  private async startRefund(tx: Tx, actor: AuditActor, id: string, req: RefundRequest): Promise<{ row: BookedRefund } | { card: CardRefundClaim }> {
    const payment = await this.repo.lockPayment(tx, id);
    if (!payment) throw new AppError('PAYMENT_NOT_FOUND');
    if (payment.status !== 'completed') throw new AppError('REFUND_NOT_ALLOWED');
    if (await this.repo.hasRefund(tx, id)) throw new AppError('REFUND_EXISTS');
    await this.refuseWhenProviderRefunded(tx, payment.provider, id);
    const amount = req.amount ? BigInt(req.amount) : BigInt(payment.amount);
    if (amount <= 0n) throw new AppError('REFUND_NOT_ALLOWED'); // a 100 % coupon purchase: nothing was paid
    if (amount > BigInt(payment.amount)) throw new AppError('REFUND_TOO_LARGE');
    const to = req.to ?? (payment.provider === 'balance' ? 'balance' : 'source');
    const userId = payment.user_id;
    const base = { userId, coin: 'usdt' as const, amount, paymentId: id };
    const refundRow = (method: 'provider' | 'manual' | 'balance') => this.repo.insertRefund(tx, {
      payment_id: id, amount, method, provider_ref: null, reason: req.reason, admin_id: actor.adminId,
    });
    const audited = async (refund: RefundRow, after: Record<string, unknown>) => {
      await this.audit.record(tx, actor, {
        action: 'payment.refund', targetType: 'payment', targetId: id,
        before: { status: payment.status, amount: payment.amount, refunded: '0', provider: payment.provider },
        after: { refunded: amount, method: refund.method, to, providerRef: refund.provider_ref, reason: req.reason, ...after },
      });
      return { row: { userId, refund } };
    };

    if (to === 'balance' || payment.provider === 'balance') {
      await this.ledger.credit(tx, { ...base, kind: 'refund', reference: `refund:${id}` });
      return audited(await refundRow('balance'), { balance: await this.ledger.balance(userId, 'usdt', tx) });
    }
    // A purchase goes back onto the balance first, so only a top-up's money must still be there.
    const before = await this.ledger.balance(userId, 'usdt', tx) + (payment.kind === 'topup' ? 0n : amount);
    if (before < amount) throw new AppError('REFUND_EXCEEDS_BALANCE', 409, undefined, { balance: before.toString() });
    const intent = payment.provider === 'card' ? await this.cardIntent(tx, id) : null;
    if (this.card && intent) {
      if (amount % MICRO_PER_CENT !== 0n) throw new AppError('VALIDATION', 400, 'Card refunds are in whole cents');
      return { card: { claim: await refundRow('provider'), intent, userId, to, before: { status: payment.status, amount: payment.amount, provider: payment.provider } } };
    }
    // Sent back by the operator outside (PayPal's site, the chain): the ledger records it now.
    if (payment.kind !== 'topup') await this.ledger.credit(tx, { ...base, kind: 'refund', reference: `refund:${id}` });
    const outReference = payment.provider === 'paypal' ? paypalConsoleRefundReference(id) : `refund-out:${id}`;
    await this.ledger.debit(tx, { ...base, kind: 'refund_out', reference: outReference });
    return audited(await refundRow('manual'), { balance: await this.ledger.balance(userId, 'usdt', tx) });
  }

  /**
   * The claimed card refund: the provider is asked outside any transaction (its charge.refunded event may arrive
   * before it answers, and on the embedded database that event needs the one connection), then the claim is booked
   * — unless the event booked it first (CardRefunds). A refusal withdraws the claim and moves nothing.
   */
  private async refundByCard(actor: AuditActor, c: CardRefundClaim): Promise<BookedRefund> {
    const paymentId = c.claim.payment_id;
    const amount = BigInt(c.claim.amount);
    let providerRef: string | null = null;
    try {
      providerRef = (await this.card!.refund(c.intent, Number(amount / MICRO_PER_CENT))).id;
    } catch (error) {
      this.ctx.log.warn({ err: error, payment: paymentId }, 'card refund refused by the provider');
      // Its event may already have booked the claim (the refund went through and only the answer was lost): then
      // the claim stands; otherwise it goes, and the operator may try again.
      const withdrawn = await this.repo.transaction((tx) => this.cardRefunds.withdraw(tx, c.claim.id, c.intent, paymentId));
      if (withdrawn) throw new AppError('REFUND_PROVIDER_FAILED');
    }
    const refund = await this.repo.transaction(async (tx) => {
      await this.cardRefunds.book(tx, { userId: c.userId, intent: c.intent, paymentId, event: null });
      const row = await this.repo.setRefundProviderRef(tx, c.claim.id, providerRef);
      await this.audit.record(tx, actor, {
        action: 'payment.refund', targetType: 'payment', targetId: paymentId,
        before: { ...c.before, refunded: '0' },
        after: { refunded: amount, method: row.method, to: c.to, providerRef, reason: row.reason, balance: await this.ledger.balance(c.userId, 'usdt', tx) },
      });
      return row;
    });
    return { userId: c.userId, refund };
  }

  /**
   * The provider already told us it sent money back (a PayPal Refunded/Reversed IPN, a Stripe charge.refunded) and that
   * was debited: a console refund now would take it a second time (and, for cards, refund at Stripe again).
   */
  private async refuseWhenProviderRefunded(tx: Tx, provider: string, id: string): Promise<void> {
    let family: string | null = null;
    if (provider === 'paypal') family = paypalRefundFamily(id);
    if (provider === 'card') {
      const intent = await this.cardIntent(tx, id);
      if (intent) family = cardRefundFamily(intent);
    }
    if (!family) return;
    const taken = await this.ledger.firstReferenceLike(tx, likeFamily(family));
    if (taken !== undefined) throw new AppError('REFUND_DONE_BY_PROVIDER', 409, undefined, { reference: taken });
  }

  private async cardIntent(tx: Tx, paymentId: string): Promise<string | null> {
    const externalId = await this.repo.orderExternalId(tx, paymentId);
    return externalId?.startsWith('pi_') ? externalId : null;
  }

  /**
   * Completes a stuck pending payment (money arrived outside our view) through the payments module's own settle:
   * the missing amount is credited under `admin-complete:<orderId>` (once), then the order completes as if the
   * provider had confirmed it — ports bought or renewed, invoice issued, customer notified.
   */
  async complete(actor: AuditActor, orderId: string, reason: string): Promise<CompletePaymentResponse> {
    const result = await this.repo.transaction(async (tx) => {
      const order = await this.repo.lockOrder(tx, orderId);
      if (!order) throw new AppError('PAYMENT_NOT_FOUND');
      if (order.status !== 'pending') throw new AppError('PAYMENT_NOT_STUCK');
      const coin = order.coin ?? 'usdt';
      const needed = (coin === 'btc' ? order.provider_amount : order.amount) - order.received;
      if (needed <= 0n) throw new AppError('COMPLETION_UNAVAILABLE');
      const settled = await this.fulfilment.settle(tx, {
        userId: order.user_id, orderId, coin, amount: needed, reference: `admin-complete:${orderId}`, kind: 'admin_completion',
      });
      if (!settled.completed) throw new AppError('COMPLETION_UNAVAILABLE');
      await this.audit.record(tx, actor, {
        action: 'payment.complete', targetType: 'payment', targetId: orderId,
        before: { status: order.status, received: order.received, provider: order.provider },
        after: { status: settled.completed.status, credited: needed, coin, reason, fulfilError: settled.completed.fulfil_error },
      });
      return { userId: order.user_id, settled };
    });
    await this.fulfilment.announce(result.userId, result.settled);
    const payment = await this.repo.byId(orderId);
    if (!payment) throw new AppError('COMPLETION_UNAVAILABLE');
    return { payment };
  }
}
