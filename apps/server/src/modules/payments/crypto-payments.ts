import type { Language } from '@cellport/shared';
import { PAYMENT_LIMITS, type Coin, type CryptoPayment } from '@cellport/shared/schemas/payments';
import type { AppContext } from '../../context.js';
import type { JobQueue } from '../../jobs/queue.js';
import { SAT_PER_BTC } from '../../integrations/rates/decimal-rate.js';
import { AppError } from '../../lib/app-error.js';
import type { Tx } from '../../db/database.js';
import type { Fulfilment } from './fulfilment.js';
import type { OrderInput, OrderPricing, Quote } from './order-pricing.js';
import type { OrderRow } from './order-view.js';
import type { OrdersRepository } from './orders.repository.js';
import type { OrdersService } from './orders.service.js';
import type { PaymentsRepository } from './payments.repository.js';
import { announcePendingCrypto } from './pending-crypto-poll.js';
import type { PaymentsRuntime } from './payments-runtime.js';
import { JOBS } from '../../jobs/job-kinds.js';

export const WATCH_INTERVAL_MS = 30_000;
const JOB_WATCH = JOBS.cryptoWatch;
const JOB_EXPIRE = JOBS.cryptoExpire;

/** Satoshi for `micro` USD at `microUsdPerBtc`, rounded UP to the satoshi so the customer never underpays. */
export function microUsdToSatUp(micro: bigint, microUsdPerBtc: bigint): bigint {
  return (micro * SAT_PER_BTC + microUsdPerBtc - 1n) / microUsdPerBtc;
}

/**
 * Pending crypto payments: created with the amount locked (BTC at the current rate), one active per customer,
 * expired after 60 minutes, watched every 30 s in live mode; deposits are credited through the fulfilment.
 */
export interface CryptoPaymentsDeps {
  orderRows: OrdersRepository;
  orders: OrdersService;
  accounts: PaymentsRepository;
  pricing: OrderPricing;
  rt: PaymentsRuntime;
  jobs: JobQueue;
  fulfilment: Fulfilment;
  log: AppContext['log'];
}

export class CryptoPayments {
  private readonly orderRows: OrdersRepository;
  private readonly orders: OrdersService;
  private readonly accounts: PaymentsRepository;
  private readonly pricing: OrderPricing;
  private readonly rt: PaymentsRuntime;
  private readonly jobs: JobQueue;
  private readonly fulfilment: Fulfilment;
  private readonly log: AppContext['log'];

  constructor(deps: CryptoPaymentsDeps) {
    this.orderRows = deps.orderRows;
    this.orders = deps.orders;
    this.accounts = deps.accounts;
    this.pricing = deps.pricing;
    this.rt = deps.rt;
    this.jobs = deps.jobs;
    this.fulfilment = deps.fulfilment;
    this.log = deps.log;
  }

  async depositAddresses(userId: string): Promise<Record<Coin, string>> {
    const index = await this.accounts.addressIndex(userId);
    return { btc: this.rt.btc.depositAddress(index), usdt: this.rt.usdt.depositAddress(index) };
  }

  /** Prices the order and creates its pending crypto payment; `topUp` is the amount in micro-USD (a top-up only). */
  async createPending(userId: string, coin: Coin, input: OrderInput, topUp: bigint | null, lng: Language): Promise<CryptoPayment> {
    const quote = await this.pricing.quote(userId, input, topUp, lng);
    return this.orders.cryptoView(await this.create(userId, coin, quote, lng));
  }

  /** The customer's active pending crypto payment, if any. */
  active(userId: string): Promise<CryptoPayment | null> {
    return this.orders.activeCryptoView(userId);
  }

  async create(userId: string, coin: Coin, quote: Quote, lng: Language): Promise<OrderRow> {
    let coinAmount = quote.amount; // micro-USDT = micro-USD
    if (coin === 'btc') {
      const rate = await this.rt.rates.current();
      if (!rate) throw new AppError('RATE_UNAVAILABLE');
      coinAmount = microUsdToSatUp(quote.amount, rate.microUsdPerBtc);
      // Kept with the order so the modal can say how old the rate is (or that it is the sandbox's).
      quote = { ...quote, details: { ...quote.details, rate: { usd: rate.usd, at: rate.fetchedAt.toISOString(), sandbox: rate.sandbox === true } } };
    }
    const address = (await this.depositAddresses(userId))[coin];
    const expiresAt = new Date(Date.now() + PAYMENT_LIMITS.cryptoPendingMinutes * 60_000);
    return this.orderRows.transaction(async (tx) => {
      // One active pending crypto payment per customer: a new one replaces the previous (a unique index backs this).
      await this.orderRows.cancelPendingCrypto(tx, userId);
      const order = await this.orders.create({ userId, provider: 'crypto', quote, providerAmount: coinAmount, lng, coin, address, expiresAt }, tx);
      await this.jobs.schedule(tx, { kind: JOB_EXPIRE, key: `crypto-expire:${order.id}`, runAt: expiresAt, payload: { orderId: order.id } });
      if (this.adapter(coin).mode === 'live') await this.scheduleWatch(tx, order.id, 1, new Date(Date.now() + WATCH_INTERVAL_MS));
      // One bump for both changes: the new payment replaces the cancelled one in the poll and on the client.
      await announcePendingCrypto(this.orderRows, tx, 'add', order);
      return order;
    });
  }

  private adapter(coin: Coin) {
    return coin === 'btc' ? this.rt.btc : this.rt.usdt;
  }

  private scheduleWatch(tx: Tx, orderId: string, n: number, runAt: Date) {
    return this.jobs.schedule(tx, { kind: JOB_WATCH, key: `crypto-watch:${orderId}:${n}`, runAt, payload: { orderId, n } });
  }

  /**
   * Scans the order's deposit address and credits each confirmed deposit once (its chain reference is the ledger
   * reference). Unconfirmed deposits are logged and left for a later run. Returns the settle results.
   */
  async scan(tx: Tx, order: OrderRow): Promise<void> {
    if (order.status !== 'pending' || !order.coin || !order.address) return;
    const adapter = this.adapter(order.coin);
    if (adapter.mode !== 'live') return;
    const result = await adapter.scan(order.address);
    if (!result.ok) return; // logged by the adapter; the next run tries again
    for (const d of result.deposits) {
      if (order.coin === 'btc') {
        const dep = d as import('../../integrations/bitcoin/scan-btc-deposits.js').BtcDeposit;
        if (dep.status !== 'confirmed') {
          this.log.info({ order: order.id, reference: dep.reference, confirmations: dep.confirmations }, 'BTC deposit not confirmed yet; not credited');
          continue;
        }
        const r = await this.fulfilment.settle(tx, { userId: order.user_id, orderId: order.id, coin: 'btc', amount: dep.amountSat, reference: `btc:${dep.reference}`, kind: 'crypto_deposit' });
        if (r.credited) this.afterCommit(order.user_id, r);
      } else {
        const dep = d as import('../../integrations/tron/scan-usdt-deposits.js').UsdtDeposit;
        const r = await this.fulfilment.settle(tx, { userId: order.user_id, orderId: order.id, coin: 'usdt', amount: dep.amountMicroUsdt, reference: `usdt:${dep.reference}`, kind: 'crypto_deposit' });
        if (r.credited) this.afterCommit(order.user_id, r);
      }
    }
  }

  private afterCommit(userId: string, r: Parameters<Fulfilment['announce']>[1]) {
    // Announced right away; a listener re-reads the balance, so an event ahead of the commit by milliseconds is harmless.
    setImmediate(() => { void this.fulfilment.announce(userId, r); });
  }

  /** One scan of an order in its own transaction (the order row is locked, so concurrent scans queue). */
  async scanNow(orderId: string): Promise<void> {
    await this.orderRows.transaction(async (tx) => {
      const order = await this.orderRows.lock(tx, orderId);
      if (order) await this.scan(tx, order);
    });
  }

  /** Durable jobs: the watcher re-schedules itself every 30 s while the order is pending; expiry at 60 minutes. */
  registerJobs(): void {
    this.jobs.handle(JOB_WATCH, async (tx, payload, now) => {
      const { orderId, n = 1 } = payload;
      const order = await this.orderRows.lock(tx, orderId);
      if (!order || order.status !== 'pending') return;
      await this.scan(tx, order);
      const after = await this.orderRows.state(tx, orderId);
      if (after.status === 'pending' && (!after.expires_at || after.expires_at.getTime() > now.getTime())) {
        await this.scheduleWatch(tx, orderId, n + 1, new Date(now.getTime() + WATCH_INTERVAL_MS));
      }
    });
    this.jobs.handle(JOB_EXPIRE, async (tx, { orderId }) => {
      const order = await this.orderRows.lock(tx, orderId);
      if (!order || order.status !== 'pending') return;
      // A last look at the chain, so a deposit that arrived just before the deadline still completes the order.
      await this.scan(tx, order);
      const expired = await this.orderRows.expireIfPending(tx, orderId);
      if (expired) await announcePendingCrypto(this.orderRows, tx, 'cancel', expired);
    });
  }
}
