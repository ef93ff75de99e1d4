import type { Language } from '@cellport/shared/constants';

/**
 * Where sign-in returns to (spec §4): the ?redirect= value when it is longer than 2 characters, otherwise the
 * root. Every page lives under the language segment, and a bare '/' would land on /en/dashboard (spec §2's
 * fallback), so the root is '/{language}' — the same dashboard in the language the person signed in with.
 * Only same-origin relative paths are kept; the server checks again, this only avoids a pointless round trip.
 */
export function returnUrl(search: string, language: Language): string {
  const root = `/${language}`;
  const value = new URLSearchParams(search).get('redirect') ?? '';
  if (value.length <= 2) return root;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return root;
  return value;
}
