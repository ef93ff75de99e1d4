import type { Database } from '../../db/database.js';
import type { RealtimeTokenHolder } from './realtime-token.js';

/**
 * Whether the session a realtime token names still stands: not ended, not expired, its customer active. Read from
 * the database, not the session cache, so a sign-out on another instance counts the moment it committed.
 */
export async function sessionIsLive(db: Database, { userId, sessionId }: RealtimeTokenHolder): Promise<boolean> {
  const row = await db.selectFrom('sessions').innerJoin('users', 'users.id', 'sessions.user_id')
    .select('sessions.id')
    .where('sessions.id', '=', sessionId).where('sessions.user_id', '=', userId)
    .where('sessions.expires_at', '>', new Date()).where('users.is_active', '=', true)
    .executeTakeFirst();
  return row !== undefined;
}
