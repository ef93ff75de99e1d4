/**
 * Where sign-in returns to (spec §4): the ?redirect= value when it is longer than 2 characters, otherwise '/'.
 * Only same-origin relative paths are kept; the server checks again, this only avoids a pointless round trip.
 */
export function returnUrl(search: string): string {
  const value = new URLSearchParams(search).get('redirect') ?? '';
  if (value.length <= 2) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  return value;
}
