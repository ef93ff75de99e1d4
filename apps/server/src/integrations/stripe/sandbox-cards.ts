/**
 * The sandbox's test cards, mirroring Stripe's test numbers so the same numbers work in both modes:
 * 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined. Any other number is refused: one that fails the
 * Luhn check as mistyped, a well-formed one as an unknown (real) card, which the sandbox will never charge.
 */
export type SandboxCardCheck =
  | { ok: true; brand: string; last4: string; declinesCharges: boolean }
  | { ok: false; code: 'incorrect_number' | 'card_declined'; declineCode?: string; message: string };

const DECLINED = 'Your card was declined.';

interface TestCard {
  brand: string;
  decline?: { code: string; message: string };
  /** Saves fine (setup intent) but every later charge is declined, like Stripe's 4000 0000 0000 0341. */
  declinesCharges?: boolean;
}

const TEST_CARDS: Record<string, TestCard> = {
  '4242424242424242': { brand: 'visa' },
  '5555555555554444': { brand: 'mastercard' },
  '4000000000000002': { brand: 'visa', decline: { code: 'generic_decline', message: DECLINED } },
  '4000000000009995': { brand: 'visa', decline: { code: 'insufficient_funds', message: 'Your card has insufficient funds.' } },
  '4000000000000341': { brand: 'visa', declinesCharges: true },
};

/** Checks a number typed into the sandbox card form, for a payment ('charge') or for saving the card ('setup'). */
export function checkSandboxCard(cardNumber: string, purpose: 'charge' | 'setup' = 'charge'): SandboxCardCheck {
  const digits = cardNumber.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !passesLuhn(digits)) {
    return { ok: false, code: 'incorrect_number', message: 'Your card number is incorrect.' };
  }
  const card = TEST_CARDS[digits];
  if (!card) {
    return {
      ok: false,
      code: 'card_declined',
      declineCode: 'test_mode_live_card',
      message: 'Your card was declined. The sandbox accepts only test cards such as 4242 4242 4242 4242.',
    };
  }
  if (card.decline) return { ok: false, code: 'card_declined', declineCode: card.decline.code, message: card.decline.message };
  if (card.declinesCharges && purpose === 'charge') return { ok: false, code: 'card_declined', declineCode: 'generic_decline', message: DECLINED };
  return { ok: true, brand: card.brand, last4: digits.slice(-4), declinesCharges: card.declinesCharges ?? false };
}

export type SandboxExpiryCheck =
  | { ok: true; month: number; year: number }
  | { ok: false; code: 'invalid_expiry_month' | 'invalid_expiry_year' | 'expired_card'; message: string };

/** Years ahead a card may expire (Stripe refuses expiry years that far out as invalid). */
const EXPIRY_YEARS_AHEAD = 50;

/**
 * Checks an expiry typed into the sandbox card form: `MM/YY` or `MM/YYYY` (one-digit months and spaces allowed).
 * The month and year are kept exactly as typed (issue 13: they were replaced by "now + 3 years", so 12/30 showed as
 * 11/2029). A card is valid through the last day of its month, in UTC, whatever the server's time zone.
 */
export function checkSandboxExpiry(expiry: string, now: Date): SandboxExpiryCheck {
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(expiry);
  const month = m ? Number(m[1]) : 0;
  if (!m || month < 1 || month > 12) return { ok: false, code: 'invalid_expiry_month', message: 'Your card\'s expiration month is invalid.' };
  const year = m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  if (year > now.getUTCFullYear() + EXPIRY_YEARS_AHEAD) return { ok: false, code: 'invalid_expiry_year', message: 'Your card\'s expiration year is invalid.' };
  if (isExpired(month, year, now)) return { ok: false, code: 'expired_card', message: 'Your card has expired.' };
  return { ok: true, month, year };
}

/** Whether a card expiring in `month`/`year` (month 1-12) has expired at `now`: after the last day of that month, UTC. */
export function isExpired(month: number, year: number, now: Date): boolean {
  return year * 12 + (month - 1) < now.getUTCFullYear() * 12 + now.getUTCMonth();
}

/** The Luhn checksum every card number carries: catches a mistyped digit or two swapped neighbours. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * Whether the sandbox's test card ending in `last4` saves fine but declines every charge (4000 0000 0000 0341): a
 * subscription restored after a restart (SandboxCardProvider.restoreSubscription) keeps charging its card the same way.
 */
export function declinesChargesByLast4(last4: string): boolean {
  return Object.entries(TEST_CARDS).some(([number, card]) => number.endsWith(last4) && card.declinesCharges === true);
}
