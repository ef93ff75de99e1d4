import type { Tariff } from '@cellport/shared/schemas/catalog';
import { describe, expect, it } from 'vitest';
import type { PaymentOrder } from '../flow/payment-order';
import { subscriptionOffered, typeKey } from './payment-type';

const tariff = (period: Tariff['period'], recurring: boolean) => ({ _id: `t-${period}-${recurring}`, period, recurring }) as Tariff;
const purchase = (t: Tariff): PaymentOrder => ({
  kind: 'purchase', amount: 10_000_000n, tariff: t, country_id: 'c', carrier_id: null, region_id: null, isShared: false,
  rotationInterval: 0, modemCount: 1, coupon: null, countryName: 'Germany',
});

describe('card payment type (spec §4)', () => {
  it('offers a subscription only for a monthly tariff with recurring enabled', () => {
    expect(subscriptionOffered(purchase(tariff('month', true)))).toBe(true);
    expect(subscriptionOffered(purchase(tariff('month', false)))).toBe(false);
    expect(subscriptionOffered(purchase(tariff('week', true)))).toBe(false);
    expect(subscriptionOffered({ kind: 'topup', amount: 1n })).toBe(false);
    expect(subscriptionOffered({ kind: 'renewal', amount: 1n, basket: {}, modemNames: [], coupon: null })).toBe(false);
  });

  it('keys the chosen type by tariff, so another tariff resets it', () => {
    expect(typeKey(purchase(tariff('month', true)))).not.toBe(typeKey(purchase(tariff('week', true))));
  });
});
