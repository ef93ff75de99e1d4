import { API_KEY_PREFIX, API_KEY_SHOWN_CHARS, API_KEYS_PER_CUSTOMER_MAX, type ApiKey } from '@cellport/shared/schemas/api-keys';
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { BUS_RESYNC, type Bus } from '../../lib/bus.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import type { SessionUser } from '../../plugins/session.js';

const CACHE_MS = 60_000;
const TOUCH_MS = 5 * 60_000;
const REVOKED = 'api-key:revoked';

interface Cached { user: SessionUser; keyId: string; cachedAt: number; touchedAt: number }
interface KeyRow { id: string; name: string; prefix: string; created_at: Date; last_used_at: Date | null }

const toApi = (row: KeyRow): ApiKey => ({
  _id: row.id, name: row.name, prefix: row.prefix, createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at ? row.last_used_at.toISOString() : null,
});

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
    bus.on('session:revoked', ({ userId }: { userId?: string }) => {
      if (userId) for (const [hash, c] of this.cache) if (c.user.userId === userId) this.cache.delete(hash);
    });
  }

  async list(userId: string): Promise<ApiKey[]> {
    const rows = await this.db.selectFrom('api_keys').select(['id', 'name', 'prefix', 'created_at', 'last_used_at'])
      .where('user_id', '=', userId).where('revoked_at', 'is', null).orderBy('created_at', 'desc').execute();
    return rows.map(toApi);
  }

  async create(userId: string, name: string): Promise<{ data: Omit<ApiKey, 'lastUsedAt'>; key: string }> {
    const key = `${API_KEY_PREFIX}${newToken(24)}`;
    const row = await this.db.transaction().execute(async (tx) => {
      // Serialize a customer's creations so two at once cannot pass the limit together.
      await tx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
      const { n } = await tx.selectFrom('api_keys').select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
      if (Number(n) >= API_KEYS_PER_CUSTOMER_MAX) throw new AppError('API_KEYS_LIMIT', 409);
      return tx.insertInto('api_keys')
        .values({ user_id: userId, name, prefix: key.slice(0, API_KEY_SHOWN_CHARS), key_hash: hashToken(key) })
        .returning(['id', 'name', 'prefix', 'created_at', 'last_used_at']).executeTakeFirstOrThrow();
    });
    const { lastUsedAt: _unused, ...data } = toApi(row);
    return { data, key };
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
      .select(['api_keys.id', 'api_keys.user_id', 'users.is_active'])
      .where('api_keys.key_hash', '=', hash).where('api_keys.revoked_at', 'is', null).executeTakeFirst();
    if (!row || !row.is_active) { this.cache.delete(hash); return null; }
    // An API key never carries operator rights, whoever created it.
    const entry: Cached = { user: { sessionId: `apikey:${row.id}`, userId: row.user_id, role: 'customer' }, keyId: row.id, cachedAt: now, touchedAt: hit?.touchedAt ?? 0 };
    this.cache.set(hash, entry);
    if (now - entry.touchedAt > TOUCH_MS) this.touch(entry, now);
    return entry.user;
  }

  private touch(entry: Cached, now: number): void {
    entry.touchedAt = now;
    void this.db.updateTable('api_keys').set({ last_used_at: sql`now()` }).where('id', '=', entry.keyId).execute().catch(() => {});
  }
}
