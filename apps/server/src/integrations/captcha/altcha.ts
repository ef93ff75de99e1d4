import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import type { AltchaChallenge, Captcha } from './captcha.js';
import type { SolutionStore } from './solution-store.js';

export const ALTCHA_CHALLENGE_TTL_MS = 10 * 60_000;

interface Options { hmacKey: string; maxNumber: number; store: SolutionStore }

/**
 * Self-hosted proof-of-work captcha (ALTCHA). We use altcha-lib's v1 protocol (`altcha-lib/v1`): plain SHA-256
 * over salt+number, which the browser solves with WebCrypto and no extra script. The challenge is HMAC-signed
 * with the server secret and carries its expiry in the salt, so the server keeps no state until a solution comes
 * back; then the solution is claimed in the store so it works only once.
 */
export class AltchaCaptcha implements Captcha {
  readonly provider = 'altcha' as const;
  readonly siteKey = null;

  constructor(private readonly options: Options) {}

  async challenge(): Promise<AltchaChallenge> {
    const c = await createChallenge({
      algorithm: 'SHA-256',
      hmacKey: this.options.hmacKey,
      maxnumber: this.options.maxNumber,
      expires: new Date(Date.now() + ALTCHA_CHALLENGE_TTL_MS),
    });
    return { algorithm: c.algorithm, challenge: c.challenge, maxnumber: c.maxnumber ?? this.options.maxNumber, salt: c.salt, signature: c.signature };
  }

  async verify(response: string): Promise<boolean> {
    const payload = decode(response);
    if (!payload) return false;
    // Only challenges we issued carry an expiry; one without it (or past it) is refused.
    const expires = Number(extractParams(payload).expires);
    if (!Number.isInteger(expires) || expires * 1000 < Date.now()) return false;
    let valid: boolean;
    try {
      valid = await verifySolution(payload, this.options.hmacKey, true);
    } catch {
      return false;
    }
    return valid && this.options.store.claim(payload.challenge, new Date(expires * 1000));
  }
}

interface Payload { algorithm: 'SHA-256'; challenge: string; number: number; salt: string; signature: string }

/** The browser sends base64(JSON); anything that does not look exactly like a SHA-256 solution is refused. */
function decode(response: string): Payload | null {
  if (response.length > 2000) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(response, 'base64').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const p = value as Record<string, unknown>;
  if (p.algorithm !== 'SHA-256') return null;
  if (typeof p.challenge !== 'string' || !/^[0-9a-f]{64}$/.test(p.challenge)) return null;
  if (typeof p.signature !== 'string' || !/^[0-9a-f]{64}$/.test(p.signature)) return null;
  if (typeof p.salt !== 'string' || p.salt.length > 200) return null;
  if (typeof p.number !== 'number' || !Number.isSafeInteger(p.number) || p.number < 0) return null;
  return { algorithm: 'SHA-256', challenge: p.challenge, number: p.number, salt: p.salt, signature: p.signature };
}
