import type { CaptchaChallenge } from '@cellport/shared/schemas/auth';

export type HexDigest = (text: string) => Promise<string>;

const encoder = new TextEncoder();

/** Lower-case hex SHA-256 of a text, with WebCrypto (runs off the main thread in browsers). */
export const sha256Hex: HexDigest = async (text) => {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
};

/**
 * Finds n in 0..maxnumber with hex(sha256(salt + n)) === challenge, hashing `batch` candidates at a time so the
 * browser stays responsive. Resolves null when no number matches or the signal aborts.
 */
export async function solveAltcha(
  { challenge, maxnumber, salt }: Pick<CaptchaChallenge, 'challenge' | 'maxnumber' | 'salt'>,
  { digest = sha256Hex, batch = 256, signal }: { digest?: HexDigest; batch?: number; signal?: AbortSignal } = {},
): Promise<number | null> {
  const target = challenge.toLowerCase();
  for (let start = 0; start <= maxnumber; start += batch) {
    if (signal?.aborted) return null;
    const end = Math.min(start + batch - 1, maxnumber);
    const candidates = Array.from({ length: end - start + 1 }, (_, i) => start + i);
    const hashes = await Promise.all(candidates.map((n) => digest(salt + n)));
    const found = hashes.indexOf(target);
    if (found >= 0) return start + found;
  }
  return null;
}

/** The value sent as `g-recaptcha-response`: base64 of the solved challenge as JSON. */
export function altchaPayload(solved: CaptchaChallenge, number: number): string {
  const { algorithm, challenge, salt, signature } = solved;
  return btoa(JSON.stringify({ algorithm, challenge, number, salt, signature }));
}
