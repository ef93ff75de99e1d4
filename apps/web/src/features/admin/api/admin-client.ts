// The console's API helpers: every admin call goes to /api/v1/admin/*; queries share one key prefix so a write can
// refresh whatever it may have changed.
import { apiDelete, apiGet, apiPatch, apiPost } from '../../../lib/api';

export const ADMIN_KEY = 'admin' as const;

/** `?a=1&b=x` from the filled-in fields only ('' and undefined are left out). */
export function toQuery(params: Record<string, string | number | boolean | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export const adminGet = <T>(path: string) => apiGet<T>(`/admin${path}`);
export const adminPost = <T>(path: string, body: unknown = {}) => apiPost<T>(`/admin${path}`, body);
export const adminPatch = <T>(path: string, body: unknown) => apiPatch<T>(`/admin${path}`, body);
export const adminDelete = <T>(path: string) => apiDelete<T>(`/admin${path}`);
