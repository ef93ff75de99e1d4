import type { Database } from '../../db/database.js';
import type { RealtimeTokenHolder } from './realtime-token.js';

/** What the realtime socket reads from the database: only whether a token's session still stands. */
export class RealtimeRepository {
  constructor(private readonly db: Database) {}

  /**
   * Whether the session a realtime token names still stands: not ended, not expired, its customer active. Read from
   * the database, not the session cache, so a sign-out on another instance counts the moment it committed.
   */
  async sessionIsLive({ userId, sessionId }: RealtimeTokenHolder): Promise<boolean> {
    const row = await this.db.selectFrom('sessions').innerJoin('users', 'users.id', 'sessions.user_id')
      .select('sessions.id')
      .where('sessions.id', '=', sessionId).where('sessions.user_id', '=', userId)
      .where('sessions.expires_at', '>', new Date()).where('users.is_active', '=', true)
      .executeTakeFirst();
    return row !== undefined;
  }
}
