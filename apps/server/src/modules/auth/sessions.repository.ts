import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/** A session row to insert: the token's hash as its id, never the token. */
export interface NewSession { id: string; userId: string; ip: string; userAgent: string; expiresAt: Date }

/**
 * The sessions' statements (the `sessions` table is auth's): the session plugin (plugins/session.ts) keeps them in
 * memory and reaches them through its SessionStore, which this repository is.
 */
export class SessionsRepository {
  constructor(private readonly db: Database) {}

  async insert(session: NewSession): Promise<void> {
    await this.db.insertInto('sessions').values({
      id: session.id, user_id: session.userId, ip: session.ip, user_agent: session.userAgent, expires_at: session.expiresAt,
    }).execute();
  }

  /** The session with its user's role and whether the account is active. */
  find(id: string) {
    return this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.id', 'sessions.user_id', 'sessions.expires_at', 'users.role', 'users.is_active'])
      .where('sessions.id', '=', id)
      .executeTakeFirst();
  }

  /** Records that the session was used now (the account page lists when each was last seen). */
  async touch(id: string): Promise<void> {
    await this.db.updateTable('sessions').set({ last_seen_at: sql`now()` }).where('id', '=', id).execute();
  }

  async deleteMany(ids: string[]): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', 'in', ids).execute();
  }

  /** Deletes every session of a user but `keepId`; the ids deleted. */
  async deleteForUser(userId: string, keepId?: string): Promise<string[]> {
    let q = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (keepId) q = q.where('id', '!=', keepId);
    return (await q.returning('id').execute()).map((r) => r.id);
  }
}
