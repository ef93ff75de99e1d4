import { API_BASE } from '@cellport/shared/constants';
import type { Notification } from '@cellport/shared/schemas/notifications';
import { ApiError, pageLanguage } from '../../../lib/api';

export type PollResult = { changed: false } | { changed: true; etag: string | null; data: Notification[] };

/**
 * GET /api/v1/notifications with If-None-Match. An unchanged list answers 304 with no body (the server does not
 * touch its database for it), so the 3-second poll costs almost nothing. fetch is used directly because the
 * shared api() helper does not expose response headers.
 */
export async function pollNotifications(etag: string | null, fetchImpl: typeof fetch = fetch): Promise<PollResult> {
  // The texts come in the page's language; the poll restarts without an ETag when the language changes.
  const headers: Record<string, string> = { accept: 'application/json', 'accept-language': pageLanguage() };
  if (etag) headers['if-none-match'] = etag;
  let response: Response;
  try {
    // cache: 'no-store' keeps the browser's HTTP cache from answering our own conditional request.
    response = await fetchImpl(`${API_BASE}/notifications`, { credentials: 'same-origin', headers, cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'NETWORK', 'Network error');
  }
  if (response.status === 304) return { changed: false };
  if (!response.ok) throw new ApiError(response.status, response.status === 401 ? 'UNAUTHORIZED' : 'INTERNAL', response.statusText);
  const body = (await response.json()) as { data: Notification[] };
  return { changed: true, etag: response.headers.get('etag'), data: body.data };
}
