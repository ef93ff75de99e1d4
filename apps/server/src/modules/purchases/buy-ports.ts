import { randomUUID } from 'node:crypto';
import type { Language } from '@cellport/shared';
import { PERIOD_DAYS, type BuyRequest, type PurchaseResponse } from '@cellport/shared/schemas/catalog';
import { purchasePrice } from '@cellport/shared/schemas/pricing';
import { microToDollars } from '@cellport/shared/schemas/payments';
import type { Tx } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { discountsToApi, localized, trialToApi } from '../catalog/index.js';
import { invoiceInsert, invoiceTexts, purchaseDescription, purchaseLineText } from '../invoices/index.js';
import { defaultPortName, renderText } from '../notifications/index.js';
import { newProxyLogin, newProxyPassword, newRotationNonce, rotationTokenHash, type PortListingRow } from '../ports/index.js';
import { webhookEventInsert } from '../webhooks/index.js';
import { couponToShape, toApiPayment } from './payment-view.js';
import { trialLine, volumeLine } from './offer-lines.js';
import { termJobs, trialTermJobs } from './port-lifecycle.js';
import type { PurchaseDeps } from './purchase-deps.js';
import type { StockFilter } from './purchases.repository.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** How a payment was paid: 'balance' here; the payments module passes its order id and 'card' / 'crypto' / 'paypal'. */
export interface PaidWith { paymentId?: string; provider?: string }

/**
 * One purchase inside the caller's transaction (also used to fulfil an order paid by card, crypto or PayPal).
 * About a dozen statements whatever the quantity: several ports are written by one multi-row statement each
 * (decision 014: keep the count and the order of the locks).
 */
export async function buyPorts(deps: PurchaseDeps, tx: Tx, userId: string, req: BuyRequest, lng: Language, paid: PaidWith = {}): Promise<PurchaseResponse> {
  const { repo } = deps;
  const carrierId = req.carrier_id ?? null;
  const regionId = req.region_id ?? null;
  // With the name of the carrier the invoice line names: the one chosen, or the tariff's own.
  const tariff = await repo.tariffWithCountry(tx, req.tariff_id, carrierId);
  if (!tariff || !tariff.active) throw new AppError('TARIFF_NOT_FOUND');
  if (tariff.country_id !== req.country_id || tariff.is_shared !== req.isShared
    || (tariff.carrier_id && tariff.carrier_id !== carrierId) || (tariff.region_id && tariff.region_id !== regionId)) {
    throw new AppError('TARIFF_MISMATCH');
  }

  // A trial (issue 27, item 8): one port, no coupon, once per customer. The claim is the first lock taken, so a
  // second trial purchase by the same customer in parallel waits for this one and then finds the trial used.
  const trial = req.trial ? trialToApi(tariff) : null;
  if (req.trial && !trial) throw new AppError('TRIAL_NOT_OFFERED');
  const couponName = req.coupon?.trim() || null;
  if (trial && (req.modemCount !== 1 || couponName)) throw new AppError('TRIAL_ONE_PORT');
  const paymentId = paid.paymentId ?? randomUUID();
  if (trial && !(await repo.claimTrial(tx, userId, tariff.id, paymentId))) throw new AppError('TRIAL_USED');

  // Lock order: coupon → balance → modems. Paying first means a buyer who cannot pay never holds modem locks,
  // so with SKIP LOCKED nobody sees a modem as taken by a purchase that is about to fail.
  const coupon = couponName
    ? await deps.coupons.lockForRedemption(tx, userId, couponName, { tariffIds: [tariff.id], countryIds: [tariff.country_id] })
    : null;

  const count = req.modemCount;
  // Whole cents, as the quote (order-pricing.ts) and the web compute it: the one shared purchasePrice.
  const priced = purchasePrice({
    price: tariff.price, quantity: count, days: PERIOD_DAYS[tariff.period], discounts: discountsToApi(tariff.volume_discounts),
    trial, coupon: coupon ? couponToShape(coupon) : null,
  });
  const amount = priced.total;
  const discount = priced.volumeDiscount + priced.couponDiscount;
  await deps.ledger.debit(tx, { userId, coin: 'usdt', amount, kind: 'purchase', reference: `payment:${paymentId}`, paymentId });

  // The stock, after the debit: shared modems are locked and filled here; dedicated ones are taken in the payment's
  // statement below (a round trip fewer, issue 31).
  const filter: StockFilter = { countryId: req.country_id, carrierId, regionId, isShared: req.isShared, rotationInterval: req.rotationInterval };
  const shared = req.isShared ? await takeShared(deps, tx, filter, count) : null;

  // Stored as a key and the names in every language, and shown in the reader's language (issue 14, item 3).
  const descriptionText = purchaseDescription(tariff.country_names, tariff.names, count);
  // The carrier the customer chose (or the tariff's own), named on the invoice line with the country.
  const carrierName = tariff.carrier_name;
  const lineText = purchaseLineText(tariff.names, tariff.country_names, carrierName);
  const lines = trial
    ? [trialLine(lng, trial, lineText, priced.subtotal)]
    : [{
      description: invoiceTexts(lng).purchaseLine(localized(tariff.names, lng), localized(tariff.country_names, lng), carrierName),
      text: lineText, quantity: count, unitAmount: priced.subtotal / BigInt(count), amount: priced.subtotal,
    }];
  if (priced.volumeDiscount > 0n) lines.push(volumeLine(lng, priced.volumePercent, priced.volumeDiscount));
  // The payment, its invoice, the buyer's row and (dedicated) the modems taken: one statement.
  const { payment, buyer: customer, taken } = await repo.insertPaymentWithInvoice(tx, {
    id: paymentId, user_id: userId, provider: paid.provider ?? 'balance', kind: 'purchase', status: 'completed', amount, discount,
    coupon_id: coupon?.id ?? null, coupon: coupon?.name ?? null, description: renderText(lng, descriptionText.key, descriptionText.params),
    description_text: JSON.stringify(descriptionText), modem_count: count, tariff_id: tariff.id,
  }, (payments) => invoiceInsert(payments, paymentId, lines, { amount: priced.couponDiscount, coupon: coupon?.name ?? null, lng }),
  shared ? undefined : { filter, count });
  const slots = shared ?? taken!;
  // A shortfall: the rollback gives back the modems taken and undoes the payment.
  if (slots.length < count) throw outOfStock(slots.length);

  // A trial port lasts its hours and is never renewed by itself: the customer renews it at the tariff's price to keep it.
  const expiresAt = new Date(Date.now() + (trial ? trial.hours * HOUR_MS : PERIOD_DAYS[tariff.period] * DAY_MS));
  const first = Number(customer.port_count) + 1;
  const ports = slots.map((modemId, i) => {
    const id = randomUUID();
    const nonce = newRotationNonce();
    return {
      id, user_id: userId, modem_id: modemId, tariff_id: tariff.id, is_shared: req.isShared,
      ...defaultPortName(first + i), proxy_login: newProxyLogin(), proxy_password: newProxyPassword(),
      whitelist: '[]', rotation_interval: req.rotationInterval,
      rotation_nonce: nonce, rotation_token_hash: rotationTokenHash(deps.secret, id, nonce), expires_at: expiresAt,
    };
  });
  const jobs = ports.flatMap((p) => (trial ? trialTermJobs : termJobs)({ id: p.id, expiresAt }, deps.graceDays));
  if (coupon) await deps.coupons.redeem(tx, coupon.id, userId, paymentId);
  // The ports, their jobs and links, and the webhook event that tells of them, written in the notification's statement:
  // one round trip for all of it (issue 31); it commits with them, as publishWebhookEvent's would.
  const event = webhookEventInsert(userId, 'port.bought', {
    paymentId, amount: microToDollars(amount), currency: 'USD',
    ports: ports.map((p) => ({ id: p.id, name: p.name, expiresAt: expiresAt.toISOString() })),
  });
  // The answer's listing of the new ports too, read from the rows that statement writes (a round trip fewer).
  const listed = await deps.notifications.notifyAlongside<PortListingRow>(userId, 'payment', 'purchase_completed',
    { amount: microToDollars(amount), description: descriptionText }, tx, customer,
    { ctes: repo.portsCtes(tx, paymentId, ports, deps.jobs.scheduleQuery(tx, jobs), event), rows: deps.ports.newPortsListing(tx, userId) });
  // In id order, as the listing of the table gives ports bought together (their created_at is the transaction's).
  const modems = deps.ports.toPorts(listed, lng).sort((a, b) => (a._id < b._id ? -1 : 1));
  return { error: null, data: { payment: toApiPayment(payment, ports.map((p) => ({ _id: p.id, name: p.name, default_number: p.default_number })), lng), modems } };
}

/**
 * Takes `count` free slots of shared modems matching the filter, locked for this transaction: locked in id order and
 * filled. (Dedicated modems are picked and taken with SKIP LOCKED in the payment's statement.) A shortfall throws
 * OUT_OF_STOCK and the rollback gives the modems back.
 */
async function takeShared(deps: PurchaseDeps, tx: Tx, f: StockFilter, count: number): Promise<string[]> {
  const slots: string[] = [];
  const rows = await deps.repo.lockShared(tx, f);
  for (const r of rows) {
    for (let i = r.used_slots; i < r.capacity && slots.length < count; i++) slots.push(r.id);
    if (slots.length >= count) break;
  }
  if (slots.length < count) throw outOfStock(slots.length);
  const perModem = new Map<string, number>();
  for (const id of slots) perModem.set(id, (perModem.get(id) ?? 0) + 1);
  for (const [id, n] of perModem) await deps.repo.addUsedSlots(tx, id, n);
  return slots;
}

const outOfStock = (available: number) =>
  new AppError('OUT_OF_STOCK', 409, `Not enough free ports for this choice: ${available} available`, { available });
