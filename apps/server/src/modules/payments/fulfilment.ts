import { randomUUID } from 'node:crypto';
import type { Language } from '@cellport/shared';
import type { BuyRequest, RenewRequest } from '@cellport/shared/schemas/catalog';
import { microToDollars } from '@cellport/shared/schemas/payments';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { issueInvoice } from '../invoices/index.js';
import type { CoinColumn, LedgerService } from '../ledger/index.js';
import type { NotificationsService, TextParam } from '../notifications/index.js';
import { publishWebhookEvent } from '../webhooks/index.js';
import type { OrderRow } from './order-view.js';
import type { OrdersRepository } from './orders.repository.js';
import type { OrdersService } from './orders.service.js';
import type { PaymentsRepository } from './payments.repository.js';
import { announcePendingCrypto } from './pending-crypto-poll.js';
import { TOPICS } from '../../lib/bus-topics.js';

export interface SettleInput {
  userId: string;
  /** The order this money pays for, when known (crypto: the active pending payment; card/PayPal: from metadata). */
  orderId: string | null;
  coin: CoinColumn;
  /** Minor units of `coin`: satoshi for btc, micro-USD(T) otherwise. */
  amount: bigint;
  /** Unique external reference: `card:pi_…`, `paypal:<txn_id>`, `btc:<txid>:<vout>`, `usdt:<txid>`… */
  reference: string;
  /** Ledger entry kind ('card', 'paypal', 'crypto_deposit', 'simulated'). */
  kind: string;
}

export interface SettleResult {
  /** False when the reference was booked before: a replay, nothing changed. */
  credited: boolean;
  /** The order, when this money completed it. */
  completed: OrderRow | null;
}

/** What the order needs in the coin credited towards it: satoshi for btc, micro-USD otherwise. */
/** An order's description as a notification's parameter: its stored text (rendered when read), else its words. */
const orderDescription = (o: OrderRow): TextParam => o.description_text ?? o.description;

const target = (o: OrderRow) => (o.coin === 'btc' ? o.provider_amount : o.amount);

/**
 * How a paid order becomes ports (purchases' PurchasesService, in the caller's transaction). An interface, so
 * payments does not import purchases: purchases buys from the balance, payments only hands it the paid order.
 */
export interface OrderPurchases {
  buyWithin(tx: Tx, userId: string, req: BuyRequest, lng: Language, paid?: { paymentId?: string; provider?: string }): Promise<unknown>;
  renewWithin(tx: Tx, userId: string, req: RenewRequest, lng: Language, paymentId: string, kind?: string, provider?: string): Promise<unknown>;
}

/** What the fulfilment is built from (the composition root hands them in). */
export interface FulfilmentDeps {
  orderRows: OrdersRepository;
  orders: OrdersService;
  payments: PaymentsRepository;
  purchases: OrderPurchases;
  ledger: LedgerService;
  notifications: NotificationsService;
  /** Bus events after a commit, the invoice numbering kick, the log. */
  ctx: Pick<AppContext, 'bus' | 'invoiceNumbering' | 'log'>;
}

/**
 * THE one way money from an outside provider lands and a payment completes: crypto deposits, card webhooks, the card
 * sandbox, PayPal IPNs, PayPal's offline sandbox and 'Simulate payment' all call `settle`.
 * In the caller's transaction: lock the order, book the credit under its unique reference (a replay stops here),
 * count it towards the order and, once covered, complete the order — convert BTC at the locked rate, then buy or
 * renew from the balance with the purchases service, issue the invoice and notify.
 */

export class Fulfilment {
  private readonly orderRows: OrdersRepository;
  private readonly orders: OrdersService;
  private readonly payments: PaymentsRepository;
  private readonly purchases: OrderPurchases;
  private readonly ledger: LedgerService;
  private readonly notifications: NotificationsService;
  private readonly ctx: FulfilmentDeps['ctx'];

  constructor(deps: FulfilmentDeps) {
    this.orderRows = deps.orderRows;
    this.orders = deps.orders;
    this.payments = deps.payments;
    this.purchases = deps.purchases;
    this.ledger = deps.ledger;
    this.notifications = deps.notifications;
    this.ctx = deps.ctx;
  }

  async settle(tx: Tx, input: SettleInput): Promise<SettleResult> {
    // The order row first: concurrent deliveries of one payment queue here, and the lock order is always
    // order → balance → (coupon, modems inside the purchase).
    const order = input.orderId ? await this.orderRows.lockOwn(tx, input.orderId, input.userId) : undefined;
    const credited = await this.ledger.credit(tx, {
      userId: input.userId, coin: input.coin, amount: input.amount, kind: input.kind, reference: input.reference,
    });
    if (!credited) return { credited: false, completed: null };
    if (!order || order.status !== 'pending' || (order.coin ?? 'usdt') !== input.coin) return { credited: true, completed: null };
    const received = order.received + input.amount;
    await this.orderRows.setReceived(tx, order.id, received);
    if (received < target(order)) {
      this.ctx.log.info({ order: order.id, received: String(received), needed: String(target(order)) }, 'partial payment credited; order stays pending');
      // A pending crypto payment shows what was received so far (no-op for card and PayPal orders).
      await announcePendingCrypto(this.orderRows, tx, 'update', { ...order, received });
      return { credited: true, completed: null };
    }
    const completed = await this.complete(tx, { ...order, received });
    // Deposit watcher, 'Simulate payment' and the admin's manual completion all end here: no longer active.
    await announcePendingCrypto(this.orderRows, tx, 'cancel', completed);
    return { credited: true, completed };
  }

  /** Runs `settle` in its own transaction and announces the result after the commit. */
  async settleNow(input: SettleInput): Promise<SettleResult> {
    const result = await this.orderRows.transaction((tx) => this.settle(tx, input));
    await this.announce(input.userId, result);
    return result;
  }

  /** Bus events after a commit: the header balance and the pending indicator update at once. */
  async announce(userId: string, result: SettleResult): Promise<void> {
    if (!result.credited) return;
    if (result.completed) this.ctx.invoiceNumbering.kick();
    try {
      if (result.completed) {
        const [payment] = await this.orders.view([result.completed]);
        await this.ctx.bus.publish(TOPICS.paymentCompleted, { userId, payment });
      }
      await this.ctx.bus.publish(TOPICS.balanceChanged, { userId });
    } catch (err) {
      this.ctx.log.warn({ err }, 'payment event not published');
    }
  }

  private async complete(tx: Tx, order: OrderRow): Promise<OrderRow> {
    const userId = order.user_id;
    if (order.coin === 'btc') {
      // The customer was quoted provider_amount satoshi for `amount` micro-USD: convert exactly that at the locked rate.
      await this.ledger.debit(tx, { userId, coin: 'btc', amount: order.provider_amount, kind: 'conversion', reference: `convert-out:${order.id}` });
      await this.ledger.credit(tx, { userId, coin: 'usdt', amount: order.amount, kind: 'conversion', reference: `convert-in:${order.id}` });
    }
    let fulfilError: string | null = null;
    if (order.kind === 'topup') {
      await this.recordTopUp(tx, order);
    } else {
      // A savepoint: if the ports cannot be bought any more (stock gone, coupon used up, price changed), the money
      // stays on the balance and is invoiced as a top-up; the customer is told why.
      await this.payments.savepoint(tx, 'fulfil');
      try {
        await this.fulfil(tx, order);
        await this.payments.releaseSavepoint(tx, 'fulfil');
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        await this.payments.rollbackToSavepoint(tx, 'fulfil');
        fulfilError = err.code;
        this.ctx.log.warn({ order: order.id, code: err.code }, 'paid order could not be fulfilled; the money stays on the balance');
        await this.recordTopUp(tx, order);
        await this.notifications.notify(userId, 'payment', 'payment_unfulfilled',
          { amount: microToDollars(order.amount), description: orderDescription(order), reason: err.message }, tx);
      }
    }
    const done = await this.orderRows.complete(tx, order.id, fulfilError);
    await publishWebhookEvent(tx, userId, 'payment.completed', {
      paymentId: order.id, kind: fulfilError ? 'topup' : order.kind, provider: order.provider, amount: microToDollars(order.amount), currency: 'USD',
    });
    return done;
  }

  private async fulfil(tx: Tx, order: OrderRow): Promise<void> {
    const d = order.details;
    const lng = order.language as Language;
    const provider = order.provider;
    if (order.kind === 'purchase') {
      await this.purchases.buyWithin(tx, order.user_id, {
        tariff_id: d.tariff_id!, country_id: d.country_id!, carrier_id: d.carrier_id, region_id: d.region_id,
        isShared: d.isShared ?? false, rotationInterval: d.rotationInterval ?? 0, modemCount: d.modemCount ?? 1, coupon: d.coupon,
        trial: d.trial === true,
      }, lng, { paymentId: order.id, provider });
    } else {
      await this.purchases.renewWithin(tx, order.user_id, { basket: d.basket ?? {}, coupon: d.coupon }, lng, order.id, 'renewal', provider);
    }
  }

  /** The order's money as a top-up: its payment, invoice line and notification keep the order's description text. */
  private async recordTopUp(tx: Tx, order: OrderRow): Promise<void> {
    const text = order.description_text ?? undefined;
    await this.payments.recordTopUp(tx, order, order.description);
    await issueInvoice(tx, order.id, [{
      description: order.description, ...(text ? { text } : {}), quantity: 1, unitAmount: order.amount, amount: order.amount,
    }]);
    await this.notifications.notify(order.user_id, 'payment', 'payment_received',
      { amount: microToDollars(order.amount), description: orderDescription(order) }, tx);
  }

  /**
   * Money without an order to complete (a subscription's monthly charge): credit it and renew the subscription's
   * ports for one period from the balance, as a card renewal payment.
   */
  async creditAndRenew(tx: Tx, input: SettleInput & { portIds: string[]; language: Language }): Promise<SettleResult> {
    const credited = await this.ledger.credit(tx, {
      userId: input.userId, coin: input.coin, amount: input.amount, kind: input.kind, reference: input.reference,
    });
    if (!credited || !input.portIds.length) return { credited, completed: null };
    await this.payments.savepoint(tx, 'renew');
    try {
      await this.purchases.renewWithin(tx, input.userId, { basket: Object.fromEntries(input.portIds.map((id) => [id, { periods: 1 }])) },
        input.language, randomUUID(), 'renewal', 'card');
      await this.payments.releaseSavepoint(tx, 'renew');
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await this.payments.rollbackToSavepoint(tx, 'renew');
      this.ctx.log.warn({ code: err.code, user: input.userId }, 'subscription charge credited but the ports could not be renewed');
    }
    return { credited, completed: null };
  }

  /**
   * Takes money back (card refund or dispute, PayPal refund or reversal) under its own unique reference. Never below
   * zero: when the customer already spent it, what is left is taken and the shortfall logged for the operator.
   */
  async takeBack(tx: Tx, input: { userId: string; amount: bigint; reference: string; kind: string; paymentId?: string }): Promise<boolean> {
    if (await this.payments.isBooked(tx, input.reference)) return false;
    const available = await this.payments.lockUsdtBalance(tx, input.userId);
    const amount = input.amount > available ? available : input.amount;
    if (amount < input.amount) {
      this.ctx.log.warn({ user: input.userId, reference: input.reference, wanted: String(input.amount), taken: String(amount) }, 'refund larger than the balance; shortfall left for the operator');
    }
    if (amount === 0n) {
      // Nothing to take (the ledger refuses zero entries). Nothing is recorded, so a redelivery after the customer
      // has funds takes what is owed then; until then the shortfall is the operator's to settle (logged above).
      return false;
    }
    await this.ledger.debit(tx, { userId: input.userId, coin: 'usdt', amount, kind: input.kind, reference: input.reference, paymentId: input.paymentId ?? null });
    return true;
  }
}
