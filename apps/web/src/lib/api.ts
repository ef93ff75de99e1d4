import { API_BASE, FALLBACK_LANGUAGE, type Language } from '@cellport/shared/constants';
import { COMMON_ERRORS } from '@cellport/shared/errors/common';
import { englishErrorText } from './error-texts';
import { languageFromPath } from './language';

/**
 * The page's language (its first path segment), sent as Accept-Language on every API call: texts the server makes
 * (notifications, payment and invoice descriptions) come back in the language the dashboard shows, not the
 * browser's (issue 14, item 3).
 */
export const pageLanguage = (): Language =>
  (typeof location === 'undefined' ? FALLBACK_LANGUAGE : languageFromPath(location.pathname));

/** A failed API call: HTTP status, the server's code, and its (English) message. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly body: unknown = null) {
    super(message);
    this.name = 'ApiError';
  }
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Same-origin JSON calls under /api/v1 with cookies. Non-2xx answers throw ApiError. */
export async function api<T>(method: Method, path: string, body?: unknown, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method,
      credentials: 'same-origin',
      headers: body === undefined
        ? { accept: 'application/json', 'accept-language': pageLanguage() }
        : { 'content-type': 'application/json', accept: 'application/json', 'accept-language': pageLanguage() },
      body: body === undefined ? undefined : JSON.stringify(body),
      ...init,
    });
  } catch {
    throw new ApiError(0, 'NETWORK', 'Network error. Check your connection and try again.');
  }
  if (response.status === 204) return undefined as T;
  const data: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const record = (data ?? {}) as { error?: unknown; code?: unknown };
    const code = typeof record.code === 'string' ? record.code : response.status === 401 ? 'UNAUTHORIZED' : 'INTERNAL';
    const message = typeof record.error === 'string' ? record.error : englishErrorText(code) ?? COMMON_ERRORS.INTERNAL;
    throw new ApiError(response.status, code, message, data);
  }
  return data as T;
}

export const apiGet = <T>(path: string, init?: RequestInit) => api<T>('GET', path, undefined, init);
export const apiPost = <T>(path: string, body: unknown = {}) => api<T>('POST', path, body);
export const apiPatch = <T>(path: string, body: unknown) => api<T>('PATCH', path, body);
export const apiDelete = <T>(path: string) => api<T>('DELETE', path);
