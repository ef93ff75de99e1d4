import { describe, expect, it } from 'vitest';
import { centsText, offersDraft, parseCents, parseOffers } from './tariff-offers';

// Issue 27: the tariff form accepted $8.995 (a sub-cent price); item 8: the trial and steps are checked before saving.
describe('tariff form money and offers', () => {
  it('takes whole cents only', () => {
    expect(parseCents('8.99')).toBe(8_990_000n);
    expect(parseCents('10')).toBe(10_000_000n);
    expect(parseCents('8.995')).toBeNull();
    expect(parseCents('0')).toBeNull();
    expect(centsText('8990000')).toBe('8.99');
    expect(centsText('10000000')).toBe('10');
  });

  it('parses a trial and steps, and names what is wrong', () => {
    const draft = { ...offersDraft(null, null), trialOn: true, trialHours: '1', trialPrice: '0.99',
      quantity: [{ min: '5', percent: '5' }, { min: '10', percent: '10' }], days: [{ min: '30', percent: '3' }] };
    expect(parseOffers(draft)).toEqual({ ok: true, trial: { hours: 1, price: '990000' },
      discounts: { quantity: [{ min: 5, percent: 5 }, { min: 10, percent: 10 }], days: [{ min: 30, percent: 3 }] } });
    expect(parseOffers({ ...draft, trialPrice: '0.995', trialHours: '0' })).toEqual({ ok: false, errors: { trialPrice: 'trialPrice', trialHours: 'trialHours' } });
    expect(parseOffers({ ...draft, quantity: [{ min: '5', percent: '5' }, { min: '5', percent: '7' }] })).toMatchObject({ errors: { quantity: 'overlap' } });
    expect(parseOffers({ ...draft, quantity: [{ min: '5', percent: '10' }, { min: '10', percent: '5' }] })).toMatchObject({ errors: { quantity: 'order' } });
    expect(parseOffers({ ...draft, days: [{ min: '30', percent: '95' }] })).toMatchObject({ errors: { days: 'percent' } });
    expect(parseOffers({ ...draft, days: [{ min: 'x', percent: '5' }] })).toMatchObject({ errors: { days: 'days' } });
    expect(parseOffers({ ...draft, trialOn: false, trialPrice: 'junk' })).toMatchObject({ ok: true, trial: null });
  });
});
