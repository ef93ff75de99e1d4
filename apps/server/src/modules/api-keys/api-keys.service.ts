import {
  API_KEY_PREFIX, API_KEY_SHOWN_CHARS, API_KEYS_PER_CUSTOMER_MAX, type ApiKey, type ApiKeyScope,
} from '@cellport/shared/schemas/api-keys';
import type { Tx } from '../../db/database.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { BUS_RESYNC, type Bus } from '../../lib/bus.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import type { ApiKeyGrant, SessionUser } from '../../plugins/session.js';
import { TOPICS } from '../../lib/bus-topics.js';
import type { ApiKeysRepository } from './api-keys.repository.js';

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

/**
 * Customer API keys: created with a name and shown once (`cpk_…`), stored as sha256, revoked by deleting the
 * right to use them. Bearer resolution is cached in memory like sessions; a revocation or deactivation published
 * on the bus drops the cache on every instance, so a revoked key stops working at once.
 */
export class ApiKeysService {
  private readonly cache = new Map<string, Cached>();

  constructor(private readonly repo: ApiKeysRepository, private readonly bus: Bus) {
    bus.on(REVOKED, ({ hash }: { hash: string }) => { this.cache.delete(hash); });
    bus.on(BUS_RESYNC, () => { this.cache.clear(); });
    bus.on(TOPICS.sessionRevoked, ({ userId }: { userId?: string }) => {
      if (userId) for (const [hash, c] of this.cache) if (c.user.userId === userId) this.cache.delete(hash);
    });
  }

  async list(userId: string): Promise<ApiKey[]> {
    return (await this.repo.listLive(userId)).map(toApi);
  }

  async create(userId: string, input: NewApiKey): Promise<{ data: Omit<ApiKey, 'lastUsedAt' | 'spentThisMonth'>; key: string }> {
    const scope = input.scope ?? 'full';
    const limit = input.monthlySpendLimit == null ? null : BigInt(input.monthlySpendLimit);
    const key = `${API_KEY_PREFIX}${newToken(24)}`;
    const row = await this.repo.insertWithinLimit(userId, {
      name: input.name, prefix: key.slice(0, API_KEY_SHOWN_CHARS), keyHash: hashToken(key), scope, monthlySpendLimit: limit,
    }, API_KEYS_PER_CUSTOMER_MAX);
    if (!row) throw new AppError('API_KEYS_LIMIT');
    const { lastUsedAt: _unused, spentThisMonth: _none, ...data } = toApi(row);
    return { data, key };
  }

  /** Revokes every key of the user (a password reset asked for it); each drops from every instance's cache. */
  async revokeAll(userId: string): Promise<number> {
    const hashes = await this.repo.revokeAll(userId);
    for (const hash of hashes) await this.bus.publish(REVOKED, { hash });
    return hashes.length;
  }

  async revoke(userId: string, id: string): Promise<void> {
    const hash = await this.repo.revoke(userId, id);
    if (!hash) throw notFound();
    await this.bus.publish(REVOKED, { hash });
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
    const row = await this.repo.findLive(hash);
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
    const amount = await this.repo.paymentAmount(tx, paymentId);
    if (grant.monthlySpendLimit !== null) {
      const spent = await this.repo.lockAndSumMonth(tx, grant.id);
      if (spent + amount > grant.monthlySpendLimit) {
        throw new AppError('API_KEY_SPEND_LIMIT', 403, undefined, { limit: String(grant.monthlySpendLimit), spent: String(spent) });
      }
    }
    await this.repo.insertSpend(tx, { paymentId, keyId: grant.id, amount });
  }

  private touch(entry: Cached, now: number): void {
    entry.touchedAt = now;
    void this.repo.touch(entry.keyId).catch(() => {});
  }
}
