import type { ApiKeyScope } from '@cellport/shared/schemas/api-keys';
import { sql } from 'kysely';
import type { Database, Tx } from '../../db/database.js';

/** The first instant of the current calendar month (UTC): spending caps are per month. */
const monthStart = sql<Date>`date_trunc('month', now() at time zone 'utc') at time zone 'utc'`;
const KEY_COLUMNS = ['id', 'name', 'prefix', 'created_at', 'last_used_at', 'scope', 'monthly_spend_limit'] as const;

export interface NewApiKeyRow { name: string; prefix: string; keyHash: string; scope: ApiKeyScope; monthlySpendLimit: bigint | null }

/** Customers' API keys (`api_keys`, stored as sha256) and what each spent (`api_key_spends`). */
export class ApiKeysRepository {
  constructor(private readonly db: Database) {}

  /** The user's live keys, newest first, each with what it spent this month. */
  listLive(userId: string) {
    return this.db.selectFrom('api_keys')
      .select(KEY_COLUMNS)
      .select((eb) => eb.selectFrom('api_key_spends').select((s) => s.fn.sum<string>('amount').as('spent'))
        .whereRef('api_key_spends.api_key_id', '=', 'api_keys.id').where('api_key_spends.created_at', '>=', monthStart).as('spent'))
      .where('user_id', '=', userId).where('revoked_at', 'is', null).orderBy('created_at', 'desc').execute();
  }

  /**
   * A new key, unless the user already has `max` live ones (null then). The user's row is locked first, so two
   * creations at once are counted one after the other and cannot pass the limit together.
   */
  async insertWithinLimit(userId: string, key: NewApiKeyRow, max: number) {
    return this.db.transaction().execute(async (tx) => {
      await tx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
      const { n } = await tx.selectFrom('api_keys').select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
      if (Number(n) >= max) return null;
      return tx.insertInto('api_keys')
        .values({
          user_id: userId, name: key.name, prefix: key.prefix, key_hash: key.keyHash, scope: key.scope,
          monthly_spend_limit: key.monthlySpendLimit,
        })
        .returning(KEY_COLUMNS).executeTakeFirstOrThrow();
    });
  }

  /** Revokes every live key of the user; returns their hashes. */
  async revokeAll(userId: string): Promise<string[]> {
    const rows = await this.db.updateTable('api_keys').set({ revoked_at: sql`now()` })
      .where('user_id', '=', userId).where('revoked_at', 'is', null)
      .returning('key_hash').execute();
    return rows.map((row) => row.key_hash);
  }

  /** Revokes one live key of the user; returns its hash, or null when the user has no such live key. */
  async revoke(userId: string, id: string): Promise<string | null> {
    const row = await this.db.updateTable('api_keys').set({ revoked_at: sql`now()` })
      .where('id', '=', id).where('user_id', '=', userId).where('revoked_at', 'is', null)
      .returning('key_hash').executeTakeFirst();
    return row?.key_hash ?? null;
  }

  /** The live key with this hash and whether its owner's account is active. */
  findLive(keyHash: string) {
    return this.db.selectFrom('api_keys').innerJoin('users', 'users.id', 'api_keys.user_id')
      .select(['api_keys.id', 'api_keys.user_id', 'api_keys.scope', 'api_keys.monthly_spend_limit', 'users.is_active'])
      .where('api_keys.key_hash', '=', keyHash).where('api_keys.revoked_at', 'is', null).executeTakeFirst();
  }

  async touch(keyId: string): Promise<void> {
    await this.db.updateTable('api_keys').set({ last_used_at: sql`now()` }).where('id', '=', keyId).execute();
  }

  /** The amount of a payment the purchase's transaction just wrote (what a key spent on it). */
  async paymentAmount(tx: Tx, paymentId: string): Promise<bigint> {
    const payment = await tx.selectFrom('payments').select('amount').where('id', '=', paymentId).executeTakeFirstOrThrow();
    return BigInt(payment.amount);
  }

  /** Locks the key's row for the rest of the transaction, then reads what it spent this month. */
  async lockAndSumMonth(tx: Tx, keyId: string): Promise<bigint> {
    await tx.selectFrom('api_keys').select('id').where('id', '=', keyId).forUpdate().executeTakeFirstOrThrow();
    const { spent } = await tx.selectFrom('api_key_spends').select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount'), sql<string>`0`).as('spent'))
      .where('api_key_id', '=', keyId).where('created_at', '>=', monthStart).executeTakeFirstOrThrow();
    return BigInt(spent);
  }

  async insertSpend(tx: Tx, spend: { paymentId: string; keyId: string; amount: bigint }): Promise<void> {
    await tx.insertInto('api_key_spends').values({ payment_id: spend.paymentId, api_key_id: spend.keyId, amount: spend.amount }).execute();
  }
}
