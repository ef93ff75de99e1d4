const BASE = 'http://same.origin';

/**
 * Where to send a browser after sign-in: only a same-origin relative path is followed; anything else (other hosts,
 * `//x`, `/\x`, schemes, controls) goes to `/`.
 *
 * The check is made on the value we send, not on the one we were given: URL parsing normalises the input (`/.//x`
 * becomes `//x`, a protocol-relative address), so the normalised path is checked again, and it must be one that a
 * browser resolves to this origin and leaves exactly as it is.
 */
export function safeRedirect(target: unknown): string {
  if (typeof target !== 'string' || target.length < 1 || target.length > 2000) return '/';
  if (!target.startsWith('/') || /[\u0000-\u001f\u007f\\]/.test(target)) return '/';
  let candidate: string;
  try {
    const url = new URL(target, BASE);
    candidate = url.pathname + url.search + url.hash;
  } catch {
    return '/';
  }
  return isSameOriginPath(candidate) ? candidate : '/';
}

/**
 * A path a browser follows to this origin and does not rewrite: one leading slash (never `//` or `/\`), printable
 * ASCII without backslashes, and stable under the browser's own parsing (no dot segments left to collapse).
 */
function isSameOriginPath(path: string): boolean {
  if (!/^\/(?![/\\])[\x21-\x5b\x5d-\x7e]*$/.test(path)) return false;
  try {
    const url = new URL(path, BASE);
    return url.origin === BASE && url.pathname + url.search + url.hash === path;
  } catch {
    return false;
  }
}
