import { REALTIME_TOKEN_TTL_SECONDS } from '@cellport/shared/schemas/realtime';
import { sign, unsign } from '../../lib/tokens.js';

const PURPOSE = 'rt';

export interface RealtimeTokenHolder { userId: string; sessionId: string }

/**
 * A short-lived token for the realtime connection: `rt.<userId>.<sessionId>.<expiry seconds>` signed with the server
 * secret. It names the session it was issued to, so that ending that session ends the token too (the handshake checks
 * the session is still there), not only its expiry.
 */
export function issueRealtimeToken(holder: RealtimeTokenHolder, secret: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + REALTIME_TOKEN_TTL_SECONDS;
  return sign(`${PURPOSE}.${holder.userId}.${holder.sessionId}.${expires}`, secret);
}

/** The user and session of a genuine, unexpired token; null otherwise. */
export function verifyRealtimeToken(token: unknown, secret: string, now = Date.now()): RealtimeTokenHolder | null {
  if (typeof token !== 'string' || token.length > 300) return null;
  const value = unsign(token, secret);
  if (!value) return null;
  const [purpose, userId, sessionId, expires, ...rest] = value.split('.');
  if (purpose !== PURPOSE || !userId || !sessionId || !expires || rest.length || !/^\d+$/.test(expires)) return null;
  return Number(expires) * 1000 > now ? { userId, sessionId } : null;
}
