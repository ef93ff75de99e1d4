import type { Database } from '../../db/database.js';


const meColumns = [
  'id', 'name', 'email', 'company_name', 'billing_address', 'vat_number', 'language', 'role', 'is_verified', 'totp_secret', 'totp_pending_secret',
  'totp_last_step', 'password_hash',
] as const;

export type UserRow = Awaited<ReturnType<AccountsRepository['findUser']>>;

/** The signed-in customer's own account: profile, password, two-factor, sessions. Every query is scoped by their id. */
export class AccountsRepository {
  constructor(private readonly db: Database) {}

  findUser(userId: string) {
    return this.db.selectFrom('users').select(meColumns).where('id', '=', userId).executeTakeFirst();
  }

  /** The language the customer chose (server-made texts are read in it when the request asks for none). */
  async storedLanguage(userId: string): Promise<string | null> {
    const row = await this.db.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirst();
    return row?.language ?? null;
  }

  async updateProfile(userId: string, profile: { name: string; company_name: string; billing_address: string; vat_number: string }): Promise<void> {
    await this.db.updateTable('users').set({ ...profile, updated_at: new Date() }).where('id', '=', userId).execute();
  }

  async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
    await this.db.updateTable('users').set({ password_hash: passwordHash, updated_at: new Date() })
      .where('id', '=', userId).execute();
  }

  async setPendingTotpSecret(userId: string, secret: string): Promise<void> {
    await this.db.updateTable('users').set({ totp_pending_secret: secret, updated_at: new Date() })
      .where('id', '=', userId).execute();
  }

  /**
   * Turns the pending secret on. Conditional on the pending secret still being the one verified and on the step
   * being newer than the last accepted one, so two racing confirmations cannot both succeed.
   */
  async activateTotp(userId: string, pendingSecret: string, step: bigint): Promise<boolean> {
    const result = await this.db.updateTable('users')
      .set({ totp_secret: pendingSecret, totp_pending_secret: null, totp_last_step: step, updated_at: new Date() })
      .where('id', '=', userId)
      .where('totp_pending_secret', '=', pendingSecret)
      .where('totp_secret', 'is', null)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Turns two-factor off, consuming the code's step; conditional like activateTotp so a code works once. With
   * `byRecoveryCode` the step is not checked (the recovery code, already used up, was the proof).
   */
  async deactivateTotp(userId: string, activeSecret: string, step: bigint, byRecoveryCode = false): Promise<boolean> {
    const result = await this.db.updateTable('users')
      .set({ totp_secret: null, totp_pending_secret: null, totp_last_step: step, updated_at: new Date() })
      .where('id', '=', userId)
      .where('totp_secret', '=', activeSecret)
      .$if(!byRecoveryCode, (q) => q.where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)])))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Uses up a TOTP step of the active secret (proof for regenerating recovery codes); false when already used. */
  async consumeTotpStep(userId: string, activeSecret: string, step: bigint): Promise<boolean> {
    const result = await this.db.updateTable('users').set({ totp_last_step: step })
      .where('id', '=', userId).where('totp_secret', '=', activeSecret)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  listSessions(userId: string) {
    return this.db.selectFrom('sessions')
      .select(['id', 'ip', 'user_agent', 'created_at', 'last_seen_at'])
      .where('user_id', '=', userId)
      .where('expires_at', '>', new Date())
      .orderBy('last_seen_at', 'desc')
      .execute();
  }

  async ownsSession(userId: string, sessionId: string): Promise<boolean> {
    const row = await this.db.selectFrom('sessions').select('id')
      .where('id', '=', sessionId).where('user_id', '=', userId).executeTakeFirst();
    return row !== undefined;
  }
}
