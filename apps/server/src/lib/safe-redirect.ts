/** Only a same-origin relative path is followed; anything else (other hosts, `//x`, `/\x`, schemes) goes to `/`. */
export function safeRedirect(target: unknown): string {
  if (typeof target !== 'string' || target.length < 1 || target.length > 2000) return '/';
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return '/';
  if (/[\u0000-\u001f\\]/.test(target)) return '/';
  try {
    const url = new URL(target, 'http://same.origin');
    if (url.origin !== 'http://same.origin') return '/';
    return url.pathname + url.search + url.hash;
  } catch {
    return '/';
  }
}
