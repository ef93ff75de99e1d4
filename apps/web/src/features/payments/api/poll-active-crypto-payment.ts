import { API_BASE } from '@cellport/shared/constants';
import type { ActiveCryptoPaymentResponse } from '@cellport/shared/schemas/payments';
import { ApiError } from '../../../lib/api';

export type ActiveCryptoPoll =
  | { changed: false }
  | { changed: true; etag: string | null; payment: ActiveCryptoPaymentResponse['data'] };

/**
 * GET /api/v1/pending-crypto-payment-active with If-None-Match. While nothing changed the server answers 304 with
 * no body from memory (it does not touch its database), so the 5-second poll costs almost nothing. fetch is used
 * directly because the shared api() helper does not expose response headers.
 */
export async function pollActiveCryptoPayment(etag: string | null, fetchImpl: typeof fetch = fetch): Promise<ActiveCryptoPoll> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (etag) headers['if-none-match'] = etag;
  let response: Response;
  try {
    // cache: 'no-store' keeps the browser's HTTP cache from answering our own conditional request.
    response = await fetchImpl(`${API_BASE}/pending-crypto-payment-active`, { credentials: 'same-origin', headers, cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'NETWORK', 'Network error');
  }
  if (response.status === 304) return { changed: false };
  if (!response.ok) throw new ApiError(response.status, response.status === 401 ? 'UNAUTHORIZED' : 'INTERNAL', response.statusText);
  const body = (await response.json()) as ActiveCryptoPaymentResponse;
  return { changed: true, etag: response.headers.get('etag'), payment: body.data };
}
