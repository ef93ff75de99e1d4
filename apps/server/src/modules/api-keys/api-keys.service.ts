import {
  API_KEY_PREFIX, API_KEY_SHOWN_CHARS, API_KEYS_PER_CUSTOMER_MAX, type ApiKey, type ApiKeyScope,
} from '@cellport/shared/schemas/api-keys';
import { sql } from 'kysely';
import type { Database, Tx } from '../../db/database.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { BUS_RESYNC, type Bus } from '../../lib/bus.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import type { ApiKeyGrant, SessionUser } from '../../plugins/session.js';
import { TOPICS } from '../../lib/bus-topics.js';

const CACHE_MS = 60_000;
const TOUCH_MS = 5 * 60_000;
const REVOKED = TOPICS.apiKeyRevoked;

interface Cached { user: SessionUser; keyId: string; cachedAt: number; touchedAt: number }
interface KeyRow {
  id: string; name: string; prefix: string; created_at: Date; last_used_at: Date | null;
  scope: ApiKeyScope; monthly_spend_limit: bigint | string | null; spent?: bigint | string | null;
}
export interface NewApiKey { name: string; scope?: ApiKeyScope | undefined; monthlySpendLimit?: string | null | undefined }

const toApi = (row: KeyRow): ApiKey => ({
  _id: row.id, name: row.name, prefix: row.prefix, createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at ? row.last_used_at.toISOString() : null,
  scope: row.scope, monthlySpendLimit: row.monthly_spend_limit === null ? null : String(row.monthly_spend_limit),
  spentThisMonth: String(row.spent ?? 0),
});
/** The first instant of the current calendar month (UTC): spending caps are per month. */
const monthStart = sql<Date>`date_trunc('month', now() at time zone 'utc') at time zone 'utc'`;

/**
 * Customer API keys: created with a name and shown once (`cpk_…`), stored as sha256, revoked by deleting the
 * right to use them. Bearer resolution is cached in memory like sessions; a revocation or deactivation published
 * on the bus drops the cache on every instance, so a revoked key stops working at once.
 */
export class ApiKeysService {
  private readonly cache = new Map<string, Cached>();

  constructor(private readonly db: Database, private readonly bus: Bus) {
    bus.on(REVOKED, ({ hash }: { hash: string }) => { this.cache.delete(hash); });
    bus.on(BUS_RESYNC, () => { this.cache.clear(); });
    bus.on(TOPICS.sessionRevoked, ({ userId }: { userId?: string }) => {
      if (userId) for (const [hash, c] of this.cache) if (c.user.userId === userId) this.cache.delete(hash);
    });
  }

  async list(userId: string): Promise<ApiKey[]> {
    const rows = await this.db.selectFrom('api_keys')
      .select(['id', 'name', 'prefix', 'created_at', 'last_used_at', 'scope', 'monthly_spend_limit'])
      .select((eb) => eb.selectFrom('api_key_spends').select((s) => s.fn.sum<string>('amount').as('spent'))
        .whereRef('api_key_spends.api_key_id', '=', 'api_keys.id').where('api_key_spends.created_at', '>=', monthStart).as('spent'))
      .where('user_id', '=', userId).where('revoked_at', 'is', null).orderBy('created_at', 'desc').execute();
    return rows.map(toApi);
  }

  async create(userId: string, input: NewApiKey): Promise<{ data: Omit<ApiKey, 'lastUsedAt' | 'spentThisMonth'>; key: string }> {
    const scope = input.scope ?? 'full';
    const limit = input.monthlySpendLimit == null ? null : BigInt(input.monthlySpendLimit);
    const key = `${API_KEY_PREFIX}${newToken(24)}`;
    const row = await this.db.transaction().execute(async (tx) => {
      // Serialize a customer's creations so two at once cannot pass the limit together.
      await tx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
      const { n } = await tx.selectFrom('api_keys').select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
      if (Number(n) >= API_KEYS_PER_CUSTOMER_MAX) throw new AppError('API_KEYS_LIMIT');
      return tx.insertInto('api_keys')
        .values({ user_id: userId, name: input.name, prefix: key.slice(0, API_KEY_SHOWN_CHARS), key_hash: hashToken(key), scope, monthly_spend_limit: limit })
        .returning(['id', 'name', 'prefix', 'created_at', 'last_used_at', 'scope', 'monthly_spend_limit']).executeTakeFirstOrThrow();
    });
    const { lastUsedAt: _unused, spentThisMonth: _none, ...data } = toApi(row);
    return { data, key };
  }

  /** Revokes every key of the user (a password reset asked for it); each drops from every instance's cache. */
  async revokeAll(userId: string): Promise<number> {
    const rows = await this.db.updateTable('api_keys').set({ revoked_at: sql`now()` })
      .where('user_id', '=', userId).where('revoked_at', 'is', null)
      .returning('key_hash').execute();
    for (const row of rows) await this.bus.publish(REVOKED, { hash: row.key_hash });
    return rows.length;
  }

  async revoke(userId: string, id: string): Promise<void> {
    const row = await this.db.updateTable('api_keys').set({ revoked_at: sql`now()` })
      .where('id', '=', id).where('user_id', '=', userId).where('revoked_at', 'is', null)
      .returning('key_hash').executeTakeFirst();
    if (!row) throw notFound();
    await this.bus.publish(REVOKED, { hash: row.key_hash });
  }

  /** The customer a bearer key belongs to, or null (unknown, revoked, deactivated account). */
  async resolve(key: string): Promise<SessionUser | null> {
    if (!key.startsWith(API_KEY_PREFIX) || key.length > 100) return null;
    const hash = hashToken(key);
    const now = Date.now();
    const hit = this.cache.get(hash);
    if (hit && now - hit.cachedAt < CACHE_MS) {
      if (now - hit.touchedAt > TOUCH_MS) this.touch(hit, now);
      return hit.user;
    }
    const row = await this.db.selectFrom('api_keys').innerJoin('users', 'users.id', 'api_keys.user_id')
      .select(['api_keys.id', 'api_keys.user_id', 'api_keys.scope', 'api_keys.monthly_spend_limit', 'users.is_active'])
      .where('api_keys.key_hash', '=', hash).where('api_keys.revoked_at', 'is', null).executeTakeFirst();
    if (!row || !row.is_active) { this.cache.delete(hash); return null; }
    // An API key never carries operator rights, whoever created it.
    const apiKey: ApiKeyGrant = {
      id: row.id, scope: row.scope, monthlySpendLimit: row.monthly_spend_limit === null ? null : BigInt(row.monthly_spend_limit),
    };
    const entry: Cached = { user: { sessionId: `apikey:${row.id}`, userId: row.user_id, role: 'customer', apiKey }, keyId: row.id, cachedAt: now, touchedAt: hit?.touchedAt ?? 0 };
    this.cache.set(hash, entry);
    if (now - entry.touchedAt > TOUCH_MS) this.touch(entry, now);
    return entry.user;
  }

  /**
   * Inside a purchase's transaction, once its payment is written: records what the key spent and refuses (rolling the
   * whole purchase back) when that passes the key's monthly cap. The key's row is locked first, so two purchases
   * through one key at once are counted one after the other and cannot pass the cap together.
   */
  async recordSpend(tx: Tx, grant: ApiKeyGrant, paymentId: string): Promise<void> {
    const payment = await tx.selectFrom('payments').select('amount').where('id', '=', paymentId).executeTakeFirstOrThrow();
    const amount = BigInt(payment.amount);
    if (grant.monthlySpendLimit !== null) {
      await tx.selectFrom('api_keys').select('id').where('id', '=', grant.id).forUpdate().executeTakeFirstOrThrow();
      const { spent } = await tx.selectFrom('api_key_spends').select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount'), sql<string>`0`).as('spent'))
        .where('api_key_id', '=', grant.id).where('created_at', '>=', monthStart).executeTakeFirstOrThrow();
      if (BigInt(spent) + amount > grant.monthlySpendLimit) {
        throw new AppError('API_KEY_SPEND_LIMIT', 403, undefined, { limit: String(grant.monthlySpendLimit), spent: String(spent) });
      }
    }
    await tx.insertInto('api_key_spends').values({ payment_id: paymentId, api_key_id: grant.id, amount }).execute();
  }

  private touch(entry: Cached, now: number): void {
    entry.touchedAt = now;
    void this.db.updateTable('api_keys').set({ last_used_at: sql`now()` }).where('id', '=', entry.keyId).execute().catch(() => {});
  }
}
