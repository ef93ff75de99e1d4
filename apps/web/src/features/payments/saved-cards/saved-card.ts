import type { SavedCard } from '@cellport/shared/schemas/payments';

/** Card networks by the brand code Stripe reports; a network's name is the same in every language. */
const BRANDS: Record<string, string> = {
  visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', discover: 'Discover', diners: 'Diners Club',
  jcb: 'JCB', unionpay: 'UnionPay', cartes_bancaires: 'Cartes Bancaires', eftpos_au: 'eftpos', interac: 'Interac',
};

/**
 * 'Visa •••• 4242' (the dots and the digits joined by a no-break space, so a line never ends between them); a brand
 * we do not know (or 'unknown') shows `unknownBrand`, the reader's word for a card.
 */
export function cardLabel(card: Pick<SavedCard, 'brand' | 'last4'>, unknownBrand: string): string {
  return `${BRANDS[card.brand.toLowerCase()] ?? unknownBrand} ••••\u00a0${card.last4}`;
}

/** The expiry as printed on the card: '04/29'. */
export const cardExpiry = (card: Pick<SavedCard, 'expMonth' | 'expYear'>): string =>
  `${String(card.expMonth).padStart(2, '0')}/${String(card.expYear % 100).padStart(2, '0')}`;

/** A card is valid through the last day of its expiry month. */
export function isExpired(card: Pick<SavedCard, 'expMonth' | 'expYear'>, now = new Date()): boolean {
  const year = now.getFullYear();
  return card.expYear < year || (card.expYear === year && card.expMonth < now.getMonth() + 1);
}

/** The saved cards a payment can be charged to: the ones not expired, in the order the server gave (newest first). */
export const payableCards = (cards: readonly SavedCard[], now = new Date()): SavedCard[] => cards.filter((c) => !isExpired(c, now));
