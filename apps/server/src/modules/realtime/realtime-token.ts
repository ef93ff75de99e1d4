import { REALTIME_TOKEN_TTL_SECONDS } from '@cellport/shared/schemas/realtime';
import { sign, unsign } from '../../lib/tokens.js';

const PURPOSE = 'rt';

/** A short-lived token for the realtime connection: `rt.<userId>.<expiry seconds>` signed with the server secret. */
export function issueRealtimeToken(userId: string, secret: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + REALTIME_TOKEN_TTL_SECONDS;
  return sign(`${PURPOSE}.${userId}.${expires}`, secret);
}

/** The user id of a genuine, unexpired token; null otherwise. */
export function verifyRealtimeToken(token: unknown, secret: string, now = Date.now()): string | null {
  if (typeof token !== 'string' || token.length > 300) return null;
  const value = unsign(token, secret);
  if (!value) return null;
  const [purpose, userId, expires] = value.split('.');
  if (purpose !== PURPOSE || !userId || !expires || !/^\d+$/.test(expires)) return null;
  return Number(expires) * 1000 > now ? userId : null;
}
