import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { hashRecoveryCode, newRecoveryCode, normalizeRecoveryCode, RECOVERY_CODE_COUNT } from '../../lib/recovery-codes.js';

/**
 * Two-factor recovery codes (issue 27, item 5): a set of ten per user, stored as HMACs (lib/recovery-codes.ts).
 * Sign-in (auth) checks and uses them; the account page (accounts) issues and counts them.
 */
export class RecoveryCodesRepository {
  constructor(private readonly db: Database, private readonly secret: string) {}

  /** A new set replaces the old one in one transaction; returns the codes as shown, the only time they exist. */
  async replace(userId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
      await tx.insertInto('two_factor_recovery_codes')
        .values(codes.map((code) => ({ user_id: userId, code_hash: this.hash(code) }))).execute();
    });
    return codes;
  }

  async removeAll(userId: string): Promise<void> {
    await this.db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  }

  /** Unused codes left. */
  async countLeft(userId: string): Promise<number> {
    const row = await this.db.selectFrom('two_factor_recovery_codes')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId).where('used_at', 'is', null).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Whether `input` is an unused code of the user, without using it (the credentials check before sign-in). */
  async isUnused(userId: string, input: string): Promise<boolean> {
    const hash = this.hashInput(input);
    if (!hash) return false;
    const row = await this.db.selectFrom('two_factor_recovery_codes').select('id')
      .where('user_id', '=', userId).where('code_hash', '=', hash).where('used_at', 'is', null).executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Uses the code up: one conditional update, so of two requests racing with the same code exactly one gets it.
   * Returns the unused codes left after it, or null when the code is not an unused one of this user.
   */
  async use(userId: string, input: string): Promise<number | null> {
    const hash = this.hashInput(input);
    if (!hash) return null;
    const used = await this.db.updateTable('two_factor_recovery_codes').set({ used_at: sql<Date>`now()` })
      .where('user_id', '=', userId).where('code_hash', '=', hash).where('used_at', 'is', null)
      .returning('id').executeTakeFirst();
    return used ? this.countLeft(userId) : null;
  }

  private hashInput(input: string): string | null {
    const code = normalizeRecoveryCode(input);
    return code ? hashRecoveryCode(this.secret, code) : null;
  }

  private hash(shown: string): string {
    return hashRecoveryCode(this.secret, normalizeRecoveryCode(shown)!);
  }
}
