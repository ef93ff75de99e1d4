import type { Country, Tariff } from '@cellport/shared/schemas/catalog';
import { NO_LIMITS } from '@cellport/shared/schemas/port-limits';
import { NO_DISCOUNTS } from '@cellport/shared/schemas/tariff-offers';
import { describe, expect, it } from 'vitest';
import { choose, emptySelection, portTypesFor, regionsFor, rotationIntervalsFor, tariffsForChoice } from './selection';

const names = (en: string) => ({ en, ru: en, cn: en });
const us: Country = {
  _id: 'us', code: 'US', name: 'United States', names: names('United States'),
  carriers: [{ _id: 'att', name: 'AT&T' }, { _id: 'tmo', name: 'T-Mobile' }],
  regions: [
    { _id: 'ny', name: 'New York', names: names('New York'), carrier_id: 'att' },
    { _id: 'tx', name: 'Texas', names: names('Texas'), carrier_id: 'tmo' },
    { _id: 'ca', name: 'California', names: names('California'), carrier_id: null },
  ],
};
const de: Country = { ...us, _id: 'de', code: 'DE', name: 'Germany', carriers: [{ _id: 'tel', name: 'Telekom' }], regions: [] };
const tariff = (id: string, over: Partial<Tariff>): Tariff => ({
  _id: id, name: names(id), price: '10000000', period: 'month', periodDays: 30, country_id: 'us', carrier_id: null,
  region_id: null, isShared: false, rotationInterval: 5, recurring: true, limits: NO_LIMITS, trial: null, discounts: NO_DISCOUNTS, ...over,
});
const tariffs = [
  tariff('us-ded-5-month', {}),
  tariff('us-ded-5-day', { period: 'day', periodDays: 1, price: '1000000' }),
  tariff('us-shared-10', { isShared: true, rotationInterval: 10 }),
  tariff('us-ded-0-att', { carrier_id: 'att', rotationInterval: 0 }),
  tariff('us-ded-30-ny', { region_id: 'ny', rotationInterval: 30 }),
  tariff('de-ded', { country_id: 'de', rotationInterval: 15 }),
];

describe('add-proxy selection', () => {
  it('offers the regions of the chosen carrier plus carrier-less ones', () => {
    expect(regionsFor(us, 'att').map((r) => r._id)).toEqual(['ny', 'ca']);
    expect(regionsFor(us, 'tmo').map((r) => r._id)).toEqual(['tx', 'ca']);
  });

  it('narrows port types and rotation intervals to what some tariff offers', () => {
    const s = { ...emptySelection, country_id: 'us', carrier_id: 'tmo', isShared: false };
    expect(portTypesFor(tariffs, s)).toEqual([false, true]);
    expect(rotationIntervalsFor(tariffs, s)).toEqual([5]);
    expect(rotationIntervalsFor(tariffs, { ...s, carrier_id: 'att' })).toEqual([0, 5]);
    expect(rotationIntervalsFor(tariffs, { ...s, carrier_id: 'att', region_id: 'ny' })).toEqual([0, 5, 30]);
  });

  it('lists the tariffs of the full choice shortest period first', () => {
    const s = { ...emptySelection, country_id: 'us', carrier_id: 'tmo', isShared: false, rotationInterval: 5 };
    expect(tariffsForChoice(tariffs, s).map((t) => t._id)).toEqual(['us-ded-5-day', 'us-ded-5-month']);
  });

  it('choosing a country fills every later step with the first offered value', () => {
    expect(choose([us, de], tariffs, emptySelection, { country_id: 'de' })).toEqual({
      country_id: 'de', carrier_id: 'tel', region_id: null, isShared: false, rotationInterval: 15, tariff_id: 'de-ded',
    });
  });

  it('repairs later choices that a new carrier no longer offers', () => {
    const atNy = choose([us, de], tariffs, emptySelection, { country_id: 'us', carrier_id: 'att', region_id: 'ny' });
    const at30 = choose([us, de], tariffs, atNy, { rotationInterval: 30 });
    expect(at30.tariff_id).toBe('us-ded-30-ny');
    const tmo = choose([us, de], tariffs, at30, { carrier_id: 'tmo' });
    expect(tmo).toMatchObject({ carrier_id: 'tmo', region_id: null, rotationInterval: 5, tariff_id: 'us-ded-5-day' });
  });

  it('clears everything for an unknown country', () => {
    expect(choose([us], tariffs, { ...emptySelection, country_id: 'us' }, { country_id: 'xx' })).toEqual(emptySelection);
  });
});
