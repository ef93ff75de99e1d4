import type { CatalogOffer, Country, Tariff } from '@cellport/shared/schemas/catalog';
import { describe, expect, it } from 'vitest';
import { firstInStock, offerFor, stockOf } from './offers';

// Issue 28, item 11: Add Proxies opens on a choice in stock, and marks sold-out choices.
const country = (id: string, carriers: string[]): Country => ({
  _id: id, code: id.toUpperCase(), name: id, names: { en: id, ru: id, cn: id },
  carriers: carriers.map((c) => ({ _id: c, name: c })), regions: [],
});
const tariff = (id: string, country_id: string, isShared: boolean, rotationInterval = 0): Tariff => ({
  _id: id, name: { en: id, ru: id, cn: id }, price: '1000000', period: 'month', periodDays: 30, country_id, carrier_id: null,
  region_id: null, isShared, rotationInterval, recurring: false,
  limits: { bandwidthMbps: null, maxConnections: 200, monthlyQuotaGb: null, overQuota: 'throttle', overQuotaMbps: null },
} as Tariff);
const offer = (o: Partial<CatalogOffer>): CatalogOffer => ({
  country_id: 'us', carrier_id: null, region_id: null, isShared: false, rotationInterval: null, inStock: 0, modems: 1, measured: 0,
  downMbps: null, upMbps: null, latencyMs: null, udp: null, asn: null, ...o,
});

const countries = [country('us', ['tm', 'att']), country('de', ['tk'])];
const tariffs = [tariff('us-d', 'us', false), tariff('us-s', 'us', true, 10), tariff('de-d', 'de', false)];

describe('firstInStock', () => {
  it('skips a sold-out first carrier and port type for the first choice with ports', () => {
    const offers = [
      offer({ carrier_id: 'tm', inStock: 0 }), offer({ carrier_id: 'tm', isShared: true, rotationInterval: 10, inStock: 0 }),
      offer({ carrier_id: 'att', inStock: 0 }), offer({ carrier_id: 'att', isShared: true, rotationInterval: 10, inStock: 3 }),
    ];
    expect(firstInStock(countries, tariffs, offers)).toMatchObject({ country_id: 'us', carrier_id: 'att', isShared: true, rotationInterval: 10, tariff_id: 'us-s' });
  });

  it('moves to the next country when the first is sold out; nothing anywhere keeps the first choice', () => {
    expect(firstInStock(countries, tariffs, [offer({ country_id: 'de', carrier_id: 'tk', inStock: 2 })])).toMatchObject({ country_id: 'de', carrier_id: 'tk' });
    expect(firstInStock(countries, tariffs, [])).toMatchObject({ country_id: 'us', carrier_id: 'tm', isShared: false });
  });
});

describe('stockOf and offerFor', () => {
  const offers = [
    offer({ carrier_id: 'tm', inStock: 2 }), offer({ carrier_id: 'tm', region_id: 'ny', inStock: 2 }),
    offer({ carrier_id: null, inStock: 5 }), offer({ carrier_id: 'att', inStock: 3 }),
  ];
  it('counts each place once: "any region" rows unless a region is named', () => {
    expect(stockOf(offers, { country_id: 'us', carrier_id: 'tm' })).toBe(2);
    expect(stockOf(offers, { country_id: 'us', carrier_id: 'tm', region_id: 'ny' })).toBe(2);
    expect(stockOf(offers, { country_id: 'us' })).toBe(5);
    expect(stockOf(offers, { country_id: 'us', carrier_id: 'tm', isShared: true })).toBe(0);
  });
  it('finds the full choice\'s offer', () => {
    const s = { country_id: 'us', carrier_id: 'att', region_id: null, isShared: false, rotationInterval: 0, tariff_id: 'us-d' };
    expect(offerFor(offers, s)?.inStock).toBe(3);
    expect(offerFor(offers, { ...s, isShared: true })).toBeNull();
  });
});
