import { createHmac, randomInt } from 'node:crypto';

/** How many recovery codes a set has (issue 27, item 5). */
export const RECOVERY_CODE_COUNT = 10;

// Lowercase letters and digits without the look-alikes (0/o, 1/l/i): a code read off paper is typed right.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const LENGTH = 10; // 31^10 ≈ 2^49.5 per code, and each one is tried through the sign-in's lockout and captcha.
const NORMALIZED = new RegExp(`^[${ALPHABET}]{${LENGTH}}$`);

/** A fresh code as shown to the person: 'abcde-fghjk'. */
export function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i += 1) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/**
 * What the person typed, as a code to look up: case, spaces and hyphens dropped. Null when it cannot be a recovery
 * code (a six-digit TOTP code is never one: a recovery code has ten characters).
 */
export function normalizeRecoveryCode(input: string): string | null {
  const code = input.toLowerCase().replace(/[\s-]+/g, '');
  return NORMALIZED.test(code) ? code : null;
}

/**
 * What is stored: an HMAC keyed by the server secret, as for rotation tokens. The codes are random (about 50 bits
 * each), so a slow hash adds nothing against guessing, and a keyed hash means a copy of the database alone cannot
 * be searched offline. Being deterministic, the hash is also the lookup key, which lets one conditional update use a
 * code up.
 */
export function hashRecoveryCode(secret: string, normalized: string): string {
  return createHmac('sha256', secret).update(`recovery-code:${normalized}`).digest('hex');
}
