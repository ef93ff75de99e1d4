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
