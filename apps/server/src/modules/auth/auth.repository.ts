import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { acceptCurrentVersions } from '../legal/index.js';

export type TokenPurpose = 'email_verify' | 'password_reset';

export interface NewUser {
  email: string;
  name: string;
  company_name: string;
  password_hash: string;
  purpose: string;
  website_wishlist: string;
  language: string;
  marketing_consent: boolean;
  invite_token: string | null;
}

const SIGN_IN_COLUMNS = [
  'id', 'email', 'name', 'language', 'password_hash', 'is_active', 'is_verified', 'totp_secret', 'totp_last_step',
] as const;

/** Every query of sign-up, e-mail confirmation, sign-in and password reset. */
export class AuthRepository {
  constructor(private readonly db: Database) {}

  findUserByEmail(email: string) {
    return this.db.selectFrom('users').select(SIGN_IN_COLUMNS).where('email', '=', email).executeTakeFirst();
  }

  async emailExists(email: string): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    return row !== undefined;
  }

  /**
   * A new customer, with the Terms of Service and Refund Policy versions current in their language accepted. Returns
   * the new user's id, or null when the e-mail is taken (also when a concurrent sign-up won the race).
   */
  async insertUser(user: NewUser): Promise<string | null> {
    return this.db.transaction().execute(async (tx) => {
      const row = await tx
        .insertInto('users')
        .values(user)
        .onConflict((oc) => oc.column('email').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (row) await acceptCurrentVersions(tx, row.id, user.language);
      return row?.id ?? null;
    });
  }

  async insertToken(userId: string, purpose: TokenPurpose, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db.insertInto('user_tokens').values({ user_id: userId, purpose, token_hash: tokenHash, expires_at: expiresAt }).execute();
  }

  /** How many links of this purpose were sent to the user since `since` (caps mail to one inbox). */
  async countTokensSince(userId: string, purpose: TokenPurpose, since: Date): Promise<number> {
    const row = await this.db
      .selectFrom('user_tokens')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Whether a token of this purpose is live, used or expired (used wins), or unknown; changes nothing. */
  async tokenState(tokenHash: string, purpose: TokenPurpose): Promise<'live' | 'used' | 'expired' | 'unknown'> {
    const row = await this.db
      .selectFrom('user_tokens')
      .select((eb) => [
        eb('used_at', 'is not', null).as('used'),
        eb('expires_at', '<=', sql<Date>`now()`).as('expired'),
      ])
      .where('token_hash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    if (!row) return 'unknown';
    return row.used ? 'used' : row.expired ? 'expired' : 'live';
  }

  /** Marks a live token used and returns its owner; a used, expired or unknown token returns null. Atomic. */
  async consumeToken(tokenHash: string, purpose: TokenPurpose): Promise<string | null> {
    const row = await this.db
      .updateTable('user_tokens')
      .set({ used_at: sql<Date>`now()` })
      .where('token_hash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id ?? null;
  }

  /** The language of whoever a token (valid or not) belongs to, to answer a dead link in their language. */
  async tokenOwnerLanguage(tokenHash: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('user_tokens')
      .innerJoin('users', 'users.id', 'user_tokens.user_id')
      .select('users.language')
      .where('user_tokens.token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row?.language ?? null;
  }

  markVerified(userId: string) {
    return this.db
      .updateTable('users')
      .set({ is_verified: true, updated_at: sql<Date>`now()` })
      .where('id', '=', userId)
      .returning(['email', 'language'])
      .executeTakeFirstOrThrow();
  }

  /** Sets a new password and voids every other outstanding reset link of the user; returns who, to tell them. */
  async setPassword(userId: string, passwordHash: string): Promise<{ email: string; name: string; language: string }> {
    return this.db.transaction().execute(async (trx) => {
      const user = await trx.updateTable('users').set({ password_hash: passwordHash, updated_at: sql<Date>`now()` })
        .where('id', '=', userId).returning(['email', 'name', 'language']).executeTakeFirstOrThrow();
      await trx.updateTable('user_tokens').set({ used_at: sql<Date>`now()` })
        .where('user_id', '=', userId).where('purpose', '=', 'password_reset').where('used_at', 'is', null).execute();
      return user;
    });
  }

  /**
   * Records that a TOTP code of `step` was used. False when that step (or a later one) was already used:
   * the conditional update makes two sign-ins racing with the same code impossible.
   */
  async consumeTotpStep(userId: string, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ totp_last_step: BigInt(step) })
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', BigInt(step))]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Failed attempts on a login since `since`: from this address, and from every address together. */
  async countLoginFailuresSince(login: string, address: string, since: Date): Promise<{ fromAddress: number; total: number }> {
    const row = await this.db
      .selectFrom('login_failures')
      .select((eb) => [
        eb.fn.countAll<string>().filterWhere('address', '=', address).as('from_address'),
        eb.fn.countAll<string>().as('total'),
      ])
      .where('login', '=', login)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return { fromAddress: Number(row.from_address), total: Number(row.total) };
  }

  async addLoginFailure(login: string, address: string): Promise<void> {
    await this.db.insertInto('login_failures').values({ login, address }).execute();
  }

  /**
   * After a successful sign-in this address's counter on the login starts again (others' failures stay: the
   * owner signing in must not wipe a guesser's record); old rows of everyone are swept at the same time.
   */
  async clearLoginFailures(login: string, address: string, olderThan: Date): Promise<void> {
    await this.db.deleteFrom('login_failures')
      .where((eb) => eb.or([eb.and([eb('login', '=', login), eb('address', '=', address)]), eb('created_at', '<', olderThan)]))
      .execute();
  }
}
