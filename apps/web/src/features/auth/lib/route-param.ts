/**
 * A path parameter as the person typed it. The router decodes with decodeURI, which keeps reserved characters
 * such as '@' (%40) encoded, so e-mails and tokens are decoded once more here; malformed input stays as it is.
 */
export function decodeParam(value: string | undefined): string {
  if (!value) return '';
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The invitation token carried in the URL hash (#TOKEN), without the '#'. */
export function inviteToken(hash: string): string {
  return decodeParam(hash.replace(/^#/, '')).trim();
}
