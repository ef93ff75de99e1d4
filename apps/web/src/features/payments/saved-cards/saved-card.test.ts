import { describe, expect, it } from 'vitest';
import { cardExpiry, cardLabel, isExpired, payableCards } from './saved-card';

const card = (id: string, expMonth: number, expYear: number, brand = 'visa') => ({ id, brand, last4: '4242', expMonth, expYear });
const may2026 = new Date(2026, 4, 15);

describe('saved card display', () => {
  it('names the network and the last four digits; an unknown network reads as the fallback word', () => {
    expect(cardLabel(card('a', 1, 2030), 'Card')).toBe('Visa ••••\u00a04242');
    expect(cardLabel(card('a', 1, 2030, 'amex'), 'Card')).toBe('American Express ••••\u00a04242');
    expect(cardLabel(card('a', 1, 2030, 'unknown'), 'Карта')).toBe('Карта ••••\u00a04242');
  });

  it('prints the expiry as MM/YY', () => {
    expect(cardExpiry(card('a', 4, 2029))).toBe('04/29');
    expect(cardExpiry(card('a', 12, 2031))).toBe('12/31');
  });

  it('keeps a card valid through its expiry month and offers only valid cards for a payment', () => {
    expect(isExpired(card('a', 5, 2026), may2026)).toBe(false);
    expect(isExpired(card('a', 4, 2026), may2026)).toBe(true);
    expect(isExpired(card('a', 1, 2027), may2026)).toBe(false);
    expect(isExpired(card('a', 12, 2025), may2026)).toBe(true);
    expect(payableCards([card('new', 1, 2030), card('old', 1, 2025), card('this-month', 5, 2026)], may2026).map((c) => c.id))
      .toEqual(['new', 'this-month']);
  });
});
