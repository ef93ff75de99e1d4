import { createHash, randomUUID } from 'node:crypto';
import type { Language } from '@cellport/shared';
import {
  couponDiscount, PERIOD_DAYS, renewalPrice, type BuyRequest, type Payment, type Port, type PurchaseResponse, type RenewRequest,
} from '@cellport/shared/schemas/catalog';
import { sql, type Selectable } from 'kysely';
import type { Database, Tx } from '../../db/database.js';
import type { PaymentsTable } from '../../db/tables/ledger.js';
import type { JobQueue } from '../../jobs/queue.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { localized } from '../catalog/catalog.service.js';
import { CouponsService } from '../coupons/coupons.service.js';
import { invoiceTexts } from '../invoices/invoice-texts.js';
import { issueInvoice, type InvoiceLineInput } from '../invoices/invoices.service.js';
import { LedgerService } from '../ledger/ledger.service.js';
import { NotificationsService } from '../notifications/notifications.service.js';
import { publishWebhookEvent } from '../webhooks/webhook-events.js';
import { newProxyLogin, newProxyPassword, newRotationNonce, rotationTokenHash } from '../ports/port-credentials.js';
import type { PortsRepository } from '../ports/ports.repository.js';
import { schedulePortLifecycle, termJobs } from './port-lifecycle.js';

const DAY_MS = 86_400_000;
const dollars = (minor: bigint) => `${minor / 1_000_000n}.${String((minor % 1_000_000n) / 10_000n).padStart(2, '0')}`;

export interface PurchaseOptions { idempotencyKey?: string | undefined; lng: Language }
/** How a payment was paid: 'balance' here; the payments module passes its order id and 'card' / 'crypto' / 'paypal'. */
export interface PaidWith { paymentId?: string; provider?: string }
type Idempotent = { replay: PurchaseResponse } | { replay: null };

/**
 * Buying and renewing ports from the account balance. Each call is one transaction: the stock is locked, the
 * balance debited conditionally, the payment, ports, ledger entry, coupon use, jobs and notification written —
 * or, on any error, nothing at all.
 */
export class PurchasesService {
  private readonly coupons: CouponsService;
  private readonly ledger: LedgerService;
  private readonly notifications: NotificationsService;

  constructor(
    private readonly db: Database,
    private readonly ports: PortsRepository,
    private readonly jobs: JobQueue,
    private readonly secret: string,
    private readonly graceDays: number,
  ) {
    this.coupons = new CouponsService(db);
    this.ledger = new LedgerService(db);
    this.notifications = new NotificationsService(db);
  }

  async buy(userId: string, req: BuyRequest, options: PurchaseOptions): Promise<PurchaseResponse> {
    return this.db.transaction().execute(async (tx) => {
      const idem = await this.claimIdempotencyKey(tx, userId, 'buy', req, options.idempotencyKey);
      if (idem.replay) return idem.replay;
      const response = await this.buyWithin(tx, userId, req, options.lng);
      await this.storeIdempotentResponse(tx, userId, options.idempotencyKey, response);
      return response;
    });
  }

  async renew(userId: string, req: RenewRequest, options: PurchaseOptions): Promise<PurchaseResponse> {
    return this.db.transaction().execute(async (tx) => {
      const idem = await this.claimIdempotencyKey(tx, userId, 'renew', req, options.idempotencyKey);
      if (idem.replay) return idem.replay;
      const response = await this.renewWithin(tx, userId, req, options.lng, randomUUID());
      await this.storeIdempotentResponse(tx, userId, options.idempotencyKey, response);
      return response;
    });
  }

  /**
   * One purchase inside the caller's transaction (also used to fulfil an order paid by card, crypto or PayPal).
   * About a dozen statements whatever the quantity: several ports are written by one multi-row statement each.
   */
  async buyWithin(tx: Tx, userId: string, req: BuyRequest, lng: Language, paid: PaidWith = {}): Promise<PurchaseResponse> {
    const tariff = await tx.selectFrom('tariffs as t').innerJoin('countries as c', 'c.id', 't.country_id')
      .selectAll('t').select('c.names as country_names').where('t.id', '=', req.tariff_id).executeTakeFirst();
    if (!tariff || !tariff.active) throw new AppError('TARIFF_NOT_FOUND', 404);
    const carrierId = req.carrier_id ?? null;
    const regionId = req.region_id ?? null;
    if (tariff.country_id !== req.country_id || tariff.is_shared !== req.isShared
      || (tariff.carrier_id && tariff.carrier_id !== carrierId) || (tariff.region_id && tariff.region_id !== regionId)) {
      throw new AppError('TARIFF_MISMATCH', 422);
    }

    // Lock order: coupon → balance → modems. Paying first means a buyer who cannot pay never holds modem locks,
    // so with SKIP LOCKED nobody sees a modem as taken by a purchase that is about to fail.
    const couponName = req.coupon?.trim() || null;
    const coupon = couponName
      ? await this.coupons.lockForRedemption(tx, userId, couponName, { tariffIds: [tariff.id], countryIds: [tariff.country_id] })
      : null;

    const count = req.modemCount;
    const total = tariff.price * BigInt(count);
    const discount = coupon ? couponDiscount(total, couponToShape(coupon)) : 0n;
    const amount = total - discount;
    const paymentId = paid.paymentId ?? randomUUID();
    await this.ledger.debit(tx, { userId, coin: 'usdt', amount, kind: 'purchase', reference: `payment:${paymentId}`, paymentId });

    const slots = await this.lockStock(tx, {
      countryId: req.country_id, carrierId, regionId, isShared: req.isShared, rotationInterval: req.rotationInterval,
    }, count);

    // Who the notification speaks to, and how many ports they have had (new ones are named "Proxy n+1"…).
    const customer = await tx.selectFrom('users')
      .select(['language', 'marketing_consent', sql<string>`(select count(*) from ports where ports.user_id = users.id)`.as('port_count')])
      .where('id', '=', userId).executeTakeFirstOrThrow();

    const description = `4G ${localized(tariff.country_names, lng)} ${localized(tariff.names, lng)} - ${count}x port`;
    const payment = await tx.insertInto('payments').values({
      id: paymentId, user_id: userId, provider: paid.provider ?? 'balance', kind: 'purchase', status: 'completed', amount, discount,
      coupon_id: coupon?.id ?? null, coupon: coupon?.name ?? null, description, modem_count: count, tariff_id: tariff.id,
    }).returningAll().executeTakeFirstOrThrow();
    // The carrier the customer chose (or the tariff's own), named on the invoice line with the country.
    const carrierOf = carrierId ?? tariff.carrier_id;
    const carrierName = carrierOf
      ? (await tx.selectFrom('carriers').select('name').where('id', '=', carrierOf).executeTakeFirst())?.name ?? null
      : null;
    await issueInvoice(tx, paymentId, [{
      description: invoiceTexts(lng).purchaseLine(localized(tariff.names, lng), localized(tariff.country_names, lng),
        carrierName),
      quantity: count, unitAmount: tariff.price, amount: tariff.price * BigInt(count),
    }], { amount: discount, coupon: coupon?.name ?? null, lng });

    const expiresAt = new Date(Date.now() + PERIOD_DAYS[tariff.period] * DAY_MS);
    const first = Number(customer.port_count) + 1;
    const ports = slots.map((modemId, i) => {
      const id = randomUUID();
      const nonce = newRotationNonce();
      return {
        id, user_id: userId, modem_id: modemId, tariff_id: tariff.id, is_shared: req.isShared,
        name: `Proxy ${first + i}`, proxy_login: newProxyLogin(), proxy_password: newProxyPassword(),
        whitelist: '[]', rotation_interval: req.rotationInterval,
        rotation_nonce: nonce, rotation_token_hash: rotationTokenHash(this.secret, id, nonce), expires_at: expiresAt,
      };
    });
    // The ports, their term jobs and their links to the payment in one statement (the links' foreign keys are
    // checked at its end).
    const jobs = ports.flatMap((p) => termJobs({ id: p.id, expiresAt }, this.graceDays));
    await tx.with('new_ports', (db) => db.insertInto('ports').values(ports).returning('id'))
      .with('term_jobs', () => this.jobs.scheduleQuery(tx, jobs))
      .insertInto('payment_ports').columns(['payment_id', 'port_id'])
      .expression((eb) => eb.selectFrom('new_ports').select([sql<string>`${paymentId}::uuid`.as('payment_id'), 'new_ports.id']))
      .execute();
    if (coupon) await this.coupons.redeem(tx, coupon.id, userId, paymentId);
    await this.notifications.notify(userId, 'payment', 'purchase_completed', { amount: dollars(amount), description }, tx, customer);
    await publishWebhookEvent(tx, userId, 'port.bought', {
      paymentId, amount: dollars(amount), currency: 'USD',
      ports: ports.map((p) => ({ id: p.id, name: p.name, expiresAt: expiresAt.toISOString() })),
    });
    const modems = await this.ports.list(userId, lng, { ids: ports.map((p) => p.id), tx });
    return { error: null, data: { payment: toApiPayment(payment, ports.map((p) => ({ _id: p.id, modem_name: p.name }))), modems } };
  }

  /** Also used by the auto-renew job (with its own payment id, so the job's retry books nothing twice). */
  async renewWithin(tx: Tx, userId: string, req: RenewRequest, lng: Language, paymentId: string, kind = 'renewal', provider = 'balance'): Promise<PurchaseResponse> {
    const ids = Object.keys(req.basket);
    const couponName = req.coupon?.trim() || null;
    // Ports first (to know tariffs for the coupon scope) — lock order stays coupon → ports → balance because
    // reading ports here takes no lock; they are locked right after the coupon.
    const preview = await tx.selectFrom('ports').select(['id', 'tariff_id', 'modem_id'])
      .where('id', 'in', ids).where('user_id', '=', userId).where('status', '<>', 'released').execute();
    if (preview.length !== ids.length) throw notFound();
    const tariffIds = [...new Set(preview.map((p) => p.tariff_id))];
    const tariffs = await tx.selectFrom('tariffs').selectAll().where('id', 'in', tariffIds).execute();
    const modemCountries = await tx.selectFrom('modems').select(['id', 'country_id', 'retired'])
      .where('id', 'in', preview.map((p) => p.modem_id)).execute();
    const coupon = couponName
      ? await this.coupons.lockForRedemption(tx, userId, couponName, {
        tariffIds, countryIds: [...new Set(modemCountries.map((m) => m.country_id))],
      })
      : null;
    const ports = await tx.selectFrom('ports').select(['id', 'name', 'tariff_id', 'modem_id', 'expires_at', 'status'])
      .where('id', 'in', ids).where('user_id', '=', userId).where('status', '<>', 'released')
      .orderBy('id').forUpdate().execute();
    if (ports.length !== ids.length) throw notFound();
    if (modemCountries.some((m) => m.retired)) throw new AppError('PORT_NOT_RENEWABLE', 409);

    let total = 0n;
    const now = Date.now();
    const renewals: Array<{ id: string; expiresAt: Date }> = [];
    const lines: InvoiceLineInput[] = [];
    for (const port of ports) {
      const tariff = tariffs.find((t) => t.id === port.tariff_id)!;
      const entry = req.basket[port.id]!;
      const price = renewalPrice(tariff.price, tariff.period_days, entry);
      total += price;
      const days = entry.periods !== undefined ? entry.periods * tariff.period_days : entry.days!;
      lines.push({ description: invoiceTexts(lng).renewalLine(port.name, localized(tariff.names, lng), days), quantity: 1, unitAmount: price, amount: price });
      const from = Math.max(now, port.expires_at.getTime());
      renewals.push({ id: port.id, expiresAt: new Date(from + days * DAY_MS) });
    }
    const discount = coupon ? couponDiscount(total, couponToShape(coupon)) : 0n;
    const amount = total - discount;
    await this.ledger.debit(tx, { userId, coin: 'usdt', amount, kind, reference: `payment:${paymentId}`, paymentId });

    const names = ports.map((p) => p.name).join(', ');
    const description = `Renewal for ${names}`;
    await tx.insertInto('payments').values({
      id: paymentId, user_id: userId, provider, kind: 'renewal', status: 'completed', amount, discount,
      coupon_id: coupon?.id ?? null, coupon: coupon?.name ?? null, description, modem_count: ports.length,
      tariff_id: tariffIds.length === 1 ? tariffIds[0]! : null,
    }).execute();
    await issueInvoice(tx, paymentId, lines, { amount: discount, coupon: coupon?.name ?? null, lng });
    for (const r of renewals) {
      await tx.updateTable('ports').set({ expires_at: r.expiresAt, status: 'active' }).where('id', '=', r.id).execute();
    }
    await tx.insertInto('payment_ports').values(renewals.map((r) => ({ payment_id: paymentId, port_id: r.id }))).execute();
    await schedulePortLifecycle(this.jobs, tx, renewals, this.graceDays);
    if (coupon) await this.coupons.redeem(tx, coupon.id, userId, paymentId);
    await publishWebhookEvent(tx, userId, 'port.renewed', {
      paymentId, amount: dollars(amount), currency: 'USD', auto: kind !== 'renewal',
      ports: renewals.map((r) => ({ id: r.id, name: ports.find((p) => p.id === r.id)!.name, expiresAt: r.expiresAt.toISOString() })),
    });
    if (kind === 'renewal') {
      await this.notifications.notify(userId, 'payment', 'renewal_completed', { amount: dollars(amount), names }, tx);
    }
    return this.response(tx, userId, paymentId, ports.map((p) => p.id), lng);
  }

  /**
   * Takes `count` free slots matching the filter, locked for this transaction. Dedicated modems are taken with
   * SKIP LOCKED (a modem another buyer holds is not free for us); shared modems are locked in id order and filled.
   * The used_slots check sits on the locked row, so it is re-evaluated after waiting for a lock.
   */
  private async lockStock(tx: Tx, f: { countryId: string; carrierId: string | null; regionId: string | null; isShared: boolean; rotationInterval: number }, count: number): Promise<string[]> {
    let q = tx.selectFrom('modems').select(['id', 'capacity', 'used_slots'])
      .where('country_id', '=', f.countryId).where('is_shared', '=', f.isShared)
      .where('online', '=', true).where('retired', '=', false)
      .whereRef('used_slots', '<', 'capacity');
    if (f.carrierId) q = q.where('carrier_id', '=', f.carrierId);
    if (f.regionId) q = q.where('region_id', '=', f.regionId);
    if (f.isShared) q = q.where('rotation_interval', '=', f.rotationInterval);
    if (!f.isShared) {
      // Pick and take in one statement; a shortfall throws below and the rollback gives the modems back.
      const taken = await tx.with('picked', () => q.orderBy('imei').limit(count).forUpdate().skipLocked())
        .updateTable('modems').set({ used_slots: sql`modems.used_slots + 1` })
        .from('picked').whereRef('modems.id', '=', 'picked.id')
        .returning('modems.id').execute();
      const slots = taken.map((r) => r.id);
      if (slots.length < count) throw outOfStock(slots.length);
      return slots;
    }
    const slots: string[] = [];
    const rows = await q.orderBy('id').forUpdate().execute();
    for (const r of rows) {
      for (let i = r.used_slots; i < r.capacity && slots.length < count; i++) slots.push(r.id);
      if (slots.length >= count) break;
    }
    if (slots.length < count) throw outOfStock(slots.length);
    const perModem = new Map<string, number>();
    for (const id of slots) perModem.set(id, (perModem.get(id) ?? 0) + 1);
    for (const [id, n] of perModem) {
      await tx.updateTable('modems').set({ used_slots: sql`used_slots + ${n}` }).where('id', '=', id).execute();
    }
    return slots;
  }

  private async response(tx: Tx, userId: string, paymentId: string, portIds: string[], lng: Language): Promise<PurchaseResponse> {
    const [payment] = await listPayments(tx, userId, paymentId);
    const modems: Port[] = await this.ports.list(userId, lng, { ids: portIds, tx });
    return { error: null, data: { payment: payment!, modems } };
  }

  /**
   * Inserting the key first makes a concurrent duplicate wait on the unique index until this transaction ends;
   * it then finds the stored answer. Only successful answers are stored: a failed attempt rolls the key back too.
   */
  private async claimIdempotencyKey(tx: Tx, userId: string, op: string, req: unknown, key: string | undefined): Promise<Idempotent> {
    if (!key) return { replay: null };
    const hash = createHash('sha256').update(`${op}:${JSON.stringify(req)}`).digest('hex');
    const inserted = await tx.insertInto('idempotency_keys').values({ user_id: userId, key, request_hash: hash, response: null })
      .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing()).returning('key').executeTakeFirst();
    if (inserted) return { replay: null };
    const stored = await tx.selectFrom('idempotency_keys').select(['request_hash', 'response'])
      .where('user_id', '=', userId).where('key', '=', key).executeTakeFirst();
    if (!stored || stored.request_hash !== hash || !stored.response) throw new AppError('IDEMPOTENCY_KEY_REUSED', 422);
    return { replay: stored.response as PurchaseResponse };
  }

  private async storeIdempotentResponse(tx: Tx, userId: string, key: string | undefined, response: PurchaseResponse): Promise<void> {
    if (!key) return;
    await tx.updateTable('idempotency_keys').set({ response: JSON.stringify(response) })
      .where('user_id', '=', userId).where('key', '=', key).execute();
  }
}

const outOfStock = (available: number) =>
  new AppError('OUT_OF_STOCK', 409, `Not enough free ports for this choice: ${available} available`, { available });

const couponToShape = (c: { type: 'percent' | 'fixed'; percent: number | null; amount: bigint | null }) =>
  (c.type === 'percent' ? { type: 'percent' as const, percent: c.percent ?? 0 } : { type: 'fixed' as const, amount: String(c.amount ?? 0n) });

/** The customer's payments from the balance, newest first (or one of them). */
export async function listPayments(q: Database | Tx, userId: string, paymentId?: string): Promise<Payment[]> {
  let query = q.selectFrom('payments').selectAll().where('user_id', '=', userId);
  if (paymentId) query = query.where('id', '=', paymentId);
  const payments = await query.orderBy('created_at', 'desc').orderBy('id').limit(500).execute();
  if (!payments.length) return [];
  const links = await q.selectFrom('payment_ports').innerJoin('ports', 'ports.id', 'payment_ports.port_id')
    .select(['payment_ports.payment_id', 'ports.id', 'ports.name'])
    .where('payment_ports.payment_id', 'in', payments.map((p) => p.id)).orderBy('ports.created_at').execute();
  return payments.map((p) => toApiPayment(p, links.filter((l) => l.payment_id === p.id).map((l) => ({ _id: l.id, modem_name: l.name }))));
}

function toApiPayment(p: Selectable<PaymentsTable>, ports: Payment['ports']): Payment {
  return {
    _id: p.id, provider: p.provider, kind: p.kind, status: p.status, amount: p.amount.toString(), currency: 'USD' as const,
    coupon: p.coupon, discount: p.discount.toString(), description: p.description, modemCount: p.modem_count,
    createdAt: p.created_at.toISOString(), ports,
  };
}
