import type { Language } from '@cellport/shared';
import { couponDiscount, PERIOD_DAYS, renewalPrice, roundToCent } from '@cellport/shared/schemas/catalog';
import { purchasePrice, type PriceBreakdown } from '@cellport/shared/schemas/pricing';
import { AppError, notFound } from '../../lib/app-error.js';
import { discountsToApi, localized, trialToApi, type CatalogService } from '../catalog/index.js';
import type { CouponsService } from '../coupons/index.js';
import { renderNotification } from '../notifications/index.js';
import type { OrderDetails, OrderKind, OrdersRepository } from './orders.repository.js';

/** What a client sends to start any payment (crypto, card, PayPal), after schema validation. */
export interface OrderInput {
  tariff_id?: string | null | undefined;
  country_id?: string | null | undefined;
  carrier_id?: string | null | undefined;
  region_id?: string | null | undefined;
  isShared?: boolean | null | undefined;
  rotationInterval?: number | null | undefined;
  modemCount?: number | null | undefined;
  basket?: Record<string, { periods?: number | undefined; days?: number | undefined }> | null | undefined;
  coupon?: string | null | undefined;
  modem_id?: string | null | undefined;
  trial?: boolean | null | undefined;
}

export interface Quote {
  kind: OrderKind;
  /** Micro-USD to pay. */
  amount: bigint;
  description: string;
  details: OrderDetails;
  /**
   * Tariff periods of a purchase: only 'month' + recurring may become a subscription. `periodPrice` (micro-USD, whole
   * cents) is what renewing the bought ports for one more period costs, priced as the renewal will price it
   * (renewalPrice per port: no volume step, no coupon); a subscription charges it every period after the first.
   */
  tariff: { period: string; recurring: boolean; period_days: number; periodPrice: bigint } | null;
  /** A purchase's lines (base price, volume discount, coupon), as the quote endpoint shows them. */
  breakdown?: PriceBreakdown;
}

/** Smallest payment through an outside provider: $1 (spec §9 custom minimum). */
export const MIN_PAYMENT_MICRO = 1_000_000n;
export const MAX_PAYMENT_MICRO = 100_000n * 1_000_000n;

/**
 * Prices an order exactly as the balance buy/renew will charge it on completion (same formulas, same coupon
 * rules), and refuses what could never be fulfilled (unknown tariff, mismatch, no stock, foreign ports). Nothing is
 * locked or reserved here: the stock and the coupon are taken when the payment completes.
 * `topUp` is the client's amount in micro-USD; it only matters for a top-up.
 */
export class OrderPricing {
  constructor(private readonly orders: OrdersRepository, private readonly catalog: CatalogService, private readonly coupons: CouponsService) {}

  async quote(userId: string, input: OrderInput, topUp: bigint | null, lng: Language): Promise<Quote> {
    return checked(await this.price(userId, input, topUp, lng));
  }

  /** The same price without the bounds of a payment through an outside provider (a balance purchase has none). */
  async price(userId: string, input: OrderInput, topUp: bigint | null, lng: Language): Promise<Quote> {
    const coupon = input.coupon?.trim() || null;
    const basket = input.basket ?? (input.modem_id ? { [input.modem_id]: { periods: 1 } } : null);
    if (basket && input.tariff_id) throw new AppError('ORDER_INVALID');
    const base: OrderDetails = {
      tariff_id: null, country_id: null, carrier_id: null, region_id: null, isShared: null, rotationInterval: null,
      modemCount: null, basket: null, coupon,
    };

    if (basket) {
      const ids = Object.keys(basket);
      const ports = await this.orders.basketPorts(userId, ids);
      if (ports.length !== ids.length) throw notFound();
      let total = 0n;
      for (const p of ports) total += renewalPrice(p.price, p.period_days, basket[p.id]!);
      const discount = coupon
        ? couponDiscount(total, await this.coupons.check(userId, coupon, {
          tariffIds: [...new Set(ports.map((p) => p.tariff_id))], countryIds: [...new Set(ports.map((p) => p.country_id))],
        }))
        : 0n;
      const names = ids.map((id) => ports.find((p) => p.id === id)!.name);
      const clean = Object.fromEntries(ids.map((id) => {
        const e = basket[id]!;
        return [id, e.periods !== undefined ? { periods: e.periods } : { days: e.days! }];
      }));
      return { kind: 'renewal', amount: total - discount, description: `Renewal for ${names.join(', ')}`, details: { ...base, basket: clean }, tariff: null };
    }

    if (input.tariff_id) {
      const tariff = await this.catalog.tariff(input.tariff_id);
      if (!tariff || !tariff.active) throw new AppError('TARIFF_NOT_FOUND');
      const countryId = input.country_id ?? tariff.country_id;
      const isShared = input.isShared ?? tariff.is_shared;
      const carrierId = input.carrier_id ?? null;
      const regionId = input.region_id ?? null;
      if (tariff.country_id !== countryId || tariff.is_shared !== isShared
        || (tariff.carrier_id && tariff.carrier_id !== carrierId) || (tariff.region_id && tariff.region_id !== regionId)) {
        throw new AppError('TARIFF_MISMATCH');
      }
      const country = await this.orders.country(countryId);
      if (!country) throw new AppError('COUNTRY_NOT_FOUND');
      const count = input.modemCount ?? 1;
      const rotationInterval = input.rotationInterval ?? tariff.rotation_interval;
      const available = await this.catalog.availableUpTo({ countryId, isShared, carrierId, regionId, rotationInterval }, count);
      if (available < count) {
        throw new AppError('OUT_OF_STOCK', 409, `Not enough free ports for this choice: ${available} available`, { available });
      }
      // The trial's rules as buyPorts enforces them, refused before any money moves (its claim is taken there).
      const trial = input.trial ? trialToApi(tariff) : null;
      if (input.trial && !trial) throw new AppError('TRIAL_NOT_OFFERED');
      if (trial && (count !== 1 || coupon)) throw new AppError('TRIAL_ONE_PORT');
      if (trial && await this.catalog.trialUsed(userId)) throw new AppError('TRIAL_USED');
      const breakdown = purchasePrice({
        price: tariff.price, quantity: count, days: PERIOD_DAYS[tariff.period], discounts: discountsToApi(tariff.volume_discounts), trial,
        coupon: coupon ? await this.coupons.check(userId, coupon, { tariffIds: [tariff.id], countryIds: [countryId] }) : null,
      });
      return {
        kind: 'purchase', amount: breakdown.total, breakdown,
        description: `4G ${localized(country.names, lng)} ${localized(tariff.names, lng)} - ${count}x port`,
        details: { ...base, tariff_id: tariff.id, country_id: countryId, carrier_id: carrierId, region_id: regionId, isShared, rotationInterval, modemCount: count, trial: trial !== null },
        // A trial is one payment, never a subscription.
        tariff: trial ? null : {
          period: tariff.period, recurring: tariff.recurring, period_days: tariff.period_days,
          periodPrice: renewalPrice(tariff.price, tariff.period_days, { periods: 1 }) * BigInt(count),
        },
      };
    }

    if (topUp === null) throw new AppError('AMOUNT_INVALID');
    // A top-up typed with sub-cent digits ("12.505") is what the customer pays, so it is whole cents too.
    return { kind: 'topup', amount: roundToCent(topUp), description: renderNotification(lng, 'topup_description', {}), details: base, tariff: null };
  }
}

function checked(q: Quote): Quote {
  if (q.amount < MIN_PAYMENT_MICRO || q.amount > MAX_PAYMENT_MICRO) throw new AppError('AMOUNT_INVALID');
  return q;
}

/** Micro-USD → whole cents, rounded UP so the customer never pays less than the order costs. */
export const microToCentsUp = (micro: bigint): bigint => (micro + 9_999n) / 10_000n;
