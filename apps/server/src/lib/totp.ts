import { Secret, TOTP } from 'otpauth';

/**
 * TOTP as authenticator apps expect it: SHA1, 6 digits, 30-second steps, accepting one step either side
 * for clock drift. Secrets are stored base32-encoded (the form that goes into the otpauth:// URI).
 *
 * `verifyTotp` returns the time step the code belongs to, not just true/false, so the caller can refuse
 * a code whose step is not newer than users.totp_last_step (a code must not work twice).
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const TOTP_WINDOW = 1;

const CODE_PATTERN = /^\d{6}$/;

function totpFor(secretBase32: string, label = '', issuer = 'Cellport'): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A fresh random secret (160 bits, as RFC 4226 recommends), base32-encoded. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app scans from a QR code. */
export function totpUri(secretBase32: string, accountLabel: string, issuer = 'Cellport'): string {
  return totpFor(secretBase32, accountLabel, issuer).toString();
}

/** The time step (30-second counter) that contains `timestampMs`. */
export function totpStep(timestampMs = Date.now()): number {
  return Math.floor(timestampMs / 1000 / TOTP_PERIOD_SECONDS);
}

/** The code for a given time (used by tests and nowhere else on the server). */
export function generateTotp(secretBase32: string, timestampMs = Date.now()): string {
  return totpFor(secretBase32).generate({ timestamp: timestampMs });
}

/**
 * Checks `code` against the secret at `timestampMs` (±1 step).
 * Returns the accepted time step, or null when the code is malformed or wrong.
 * The caller must still compare the step with users.totp_last_step and store it (see consumeTotpStep callers).
 */
export function verifyTotp(secretBase32: string, code: string, timestampMs = Date.now()): number | null {
  const token = code.replace(/\s+/g, '');
  if (!CODE_PATTERN.test(token)) return null;
  let delta: number | null;
  try {
    delta = totpFor(secretBase32).validate({ token, timestamp: timestampMs, window: TOTP_WINDOW });
  } catch {
    return null; // a malformed stored secret is a wrong code, never a 500
  }
  return delta === null ? null : totpStep(timestampMs) + delta;
}

/** True when a code of `step` may still be used given the last accepted step. */
export function isFreshStep(step: number, lastStep: bigint | number | null | undefined): boolean {
  return lastStep === null || lastStep === undefined || BigInt(step) > BigInt(lastStep);
}
