import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import type { SolutionStore } from './solution-store.js';

/**
 * In the database rather than in memory, so a replay against another instance behind the load balancer fails too.
 * Rows are kept only until the challenge itself expires (after that the signature check refuses it anyway).
 */
export class DatabaseSolutionStore implements SolutionStore {
  private lastSweep = 0;
  constructor(private readonly db: Database) {}

  async claim(challenge: string, expiresAt: Date): Promise<boolean> {
    await this.sweep();
    const inserted = await this.db
      .insertInto('captcha_solutions')
      .values({ challenge, expires_at: expiresAt })
      .onConflict((oc) => oc.column('challenge').doNothing())
      .returning('challenge')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  private async sweep(): Promise<void> {
    const now = Date.now();
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    await this.db.deleteFrom('captcha_solutions').where('expires_at', '<', sql<Date>`now()`).execute();
  }
}
