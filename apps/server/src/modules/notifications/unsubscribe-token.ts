import { sign, unsign } from '../../lib/tokens.js';

const PURPOSE = 'unsubscribe:';

/** A link token that turns marketing e-mails off for one customer: their id, signed with the server secret. */
export const unsubscribeToken = (userId: string, secret: string) => sign(`${PURPOSE}${userId}`, secret);

/** The customer id of a genuine token, or null. */
export function userIdFromUnsubscribeToken(token: string, secret: string): string | null {
  if (token.length > 200) return null;
  const value = unsign(token, secret);
  if (!value?.startsWith(PURPOSE)) return null;
  const id = value.slice(PURPOSE.length);
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id) ? id : null;
}
