import type { CryptoPaymentData } from '@cellport/shared/schemas/payments';

/** A rate older than this when the payment was priced is shown with its age (the server asks the ticker each minute). */
export const STALE_RATE_MS = 10 * 60_000;

export type RateNote =
  | { kind: 'sandbox'; usd: string }
  | { kind: 'stale'; usd: string; at: string };

/**
 * What the crypto modal says about the BTC rate a payment was locked at (issue 14, item 12): the sandbox's fixed
 * rate always says so; a ticker's rate only when it was stale at pricing time (the ticker has not answered for a
 * while), with its time; a fresh rate needs no note.
 */
export function rateNote(data: Pick<CryptoPaymentData, 'coin' | 'rate'>, createdAt: string): RateNote | null {
  const rate = data.coin === 'btc' ? data.rate : null;
  if (!rate) return null;
  if (rate.sandbox) return { kind: 'sandbox', usd: rate.usd };
  return Date.parse(createdAt) - Date.parse(rate.at) > STALE_RATE_MS ? { kind: 'stale', usd: rate.usd, at: rate.at } : null;
}
