import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/**
 * The captcha passes (captcha-gate.ts): a row per solved captcha, good from one address for a few uses until it
 * expires. Every spend is one conditional statement, so parallel requests cannot share a use.
 */
export class CaptchaPassesRepository {
  constructor(private readonly db: Database) {}

  async insert(pass: { id: string; address: string; usesLeft: number; expiresAt: Date }): Promise<void> {
    await this.db.insertInto('captcha_passes')
      .values({ id: pass.id, address: pass.address, uses_left: pass.usesLeft, expires_at: pass.expiresAt })
      .execute();
  }

  /** The uses a live pass has left from this address, or null (unknown, another address, used up, expired). */
  async usesLeft(id: string, address: string): Promise<number | null> {
    const row = await this.live(id, address).select('uses_left').executeTakeFirst();
    return row?.uses_left ?? null;
  }

  /** Takes one use of a live pass from this address; false when there was none to take. */
  async takeOne(id: string, address: string): Promise<boolean> {
    const row = await this.db.updateTable('captcha_passes')
      .set((eb) => ({ uses_left: eb('uses_left', '-', 1) }))
      .where('id', '=', id).where('address', '=', address).where('uses_left', '>', 0).where('expires_at', '>', sql<Date>`now()`)
      .returning('uses_left')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Empties the pass if it still has exactly `usesLeft` uses (nobody spent one in between); false otherwise. */
  async takeAll(id: string, usesLeft: number): Promise<boolean> {
    const result = await this.db.updateTable('captcha_passes').set({ uses_left: 0 })
      .where('id', '=', id).where('uses_left', '=', usesLeft)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async giveBack(id: string, uses: number): Promise<void> {
    await this.db.updateTable('captcha_passes')
      .set((eb) => ({ uses_left: eb('uses_left', '+', uses) }))
      .where('id', '=', id)
      .execute();
  }

  async deleteExpired(): Promise<void> {
    await this.db.deleteFrom('captcha_passes').where('expires_at', '<', sql<Date>`now()`).execute();
  }

  private live(id: string, address: string) {
    return this.db.selectFrom('captcha_passes')
      .where('id', '=', id).where('address', '=', address).where('uses_left', '>', 0).where('expires_at', '>', sql<Date>`now()`);
  }
}
