import type { ApiKeyScope } from '@cellport/shared/schemas/api-keys';
// request.cookies and reply.setCookie come from @fastify/cookie's types: named here, so any compilation that reaches
// this file (the e2e and bench type check does, through the seed) sees them, not only the one that reaches app.ts.
import type {} from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../lib/app-error.js';
import { BUS_RESYNC, type Bus } from '../lib/bus.js';
import { hashToken, newToken } from '../lib/tokens.js';
import { TOPICS } from '../lib/bus-topics.js';

export const SESSION_COOKIE = 'cp_session';
// Sign-out, revocation and deactivation drop cached sessions on every instance through the bus at once; the TTL
// is only a safety net for a missed bus message. Long enough that a customer polling every 3 s does not reload
// their session from the database every minute (20,000 customers would be 333 queries/s for nothing).
const CACHE_MS = 10 * 60_000;
const TOUCH_MS = 5 * 60_000;

export interface SessionUser {
  sessionId: string; userId: string; role: 'customer' | 'admin';
  /** Set when the request authenticated with an API key: what that key may do. */
  apiKey?: ApiKeyGrant;
}
/** An API key's rights (issue 26, item 9): its scope and, on a 'full' key, its monthly spending cap in micro-USD. */
export interface ApiKeyGrant { id: string; scope: ApiKeyScope; monthlySpendLimit: bigint | null }
interface Cached extends SessionUser { expiresAt: number; cachedAt: number; touchedAt: number }

/**
 * Where sessions are stored: the auth domain's SessionsRepository, handed in by the composition root (an interface,
 * so this plugin, which every domain's routes import, imports no domain).
 */
export interface SessionStore {
  insert(session: { id: string; userId: string; ip: string; userAgent: string; expiresAt: Date }): Promise<void>;
  find(id: string): Promise<{ id: string; user_id: string; expires_at: Date; role: 'customer' | 'admin'; is_active: boolean } | undefined>;
  touch(id: string): Promise<void>;
  deleteMany(ids: string[]): Promise<void>;
  /** Deletes every session of a user but `keepId`; the ids deleted. */
  deleteForUser(userId: string, keepId?: string): Promise<string[]>;
}

/**
 * Server-side sessions in the database, with a short in-memory cache so that polls do not touch the database.
 * Revocations (sign-out, deactivation) are published on the bus and drop the cache on every instance.
 */
export class Sessions {
  private readonly cache = new Map<string, Cached>();
  /**
   * The same entries by cookie token, so that a cached session is found without a sha256 per request (polls).
   * Memory only: the database still stores only the hash. An entry counts only while `cache` holds the same
   * object under its id, so every revocation (which deletes from `cache`) also ends the token's entry.
   */
  private readonly byToken = new Map<string, Cached>();
  /** id → token, to drop the byToken entry together with the cached session. */
  private readonly tokenOf = new Map<string, string>();
  /** Set by the api-keys module: resolves `Authorization: Bearer cpk_…` on routes marked `config: { apiKey: true }`. */
  apiKeyResolver: ((key: string) => Promise<SessionUser | null>) | undefined;

  constructor(private readonly store: SessionStore, private readonly bus: Bus, private readonly config: Config) {
    bus.on(TOPICS.sessionRevoked, ({ ids, userId }: { ids?: string[]; userId?: string }) => {
      for (const id of ids ?? []) this.drop(id);
      if (userId) for (const [id, s] of this.cache) if (s.userId === userId) this.drop(id);
    });
    // Revocations in a LISTEN gap were missed: every session is read from the database again.
    bus.on(BUS_RESYNC, () => {
      this.cache.clear();
      this.byToken.clear();
      this.tokenOf.clear();
    });
  }

  /** Creates a session and returns the cookie token (only its hash is stored). */
  async create(userId: string, request: FastifyRequest): Promise<string> {
    const token = newToken();
    const expiresAt = new Date(Date.now() + this.config.SESSION_TTL_DAYS * 86_400_000);
    await this.store.insert({
      id: hashToken(token), userId, ip: request.ip, userAgent: String(request.headers['user-agent'] ?? '').slice(0, 300), expiresAt,
    });
    return token;
  }

  /** The cached, unexpired session of this cookie token, found without hashing; undefined means call resolve(). */
  cached(token: string): SessionUser | undefined {
    const hit = this.byToken.get(token);
    if (!hit || this.cache.get(hit.sessionId) !== hit) return undefined;
    const now = Date.now();
    if (hit.expiresAt <= now || now - hit.cachedAt >= CACHE_MS) return undefined;
    if (now - hit.touchedAt > TOUCH_MS) this.touch(hit, now);
    return hit;
  }

  private drop(id: string): void {
    this.cache.delete(id);
    const token = this.tokenOf.get(id);
    if (token !== undefined) { this.byToken.delete(token); this.tokenOf.delete(id); }
  }

  async resolve(token: string): Promise<SessionUser | null> {
    const id = hashToken(token);
    const now = Date.now();
    const hit = this.cache.get(id);
    if (hit && hit.expiresAt > now && now - hit.cachedAt < CACHE_MS) {
      if (now - hit.touchedAt > TOUCH_MS) this.touch(hit, now);
      return hit;
    }
    const row = await this.store.find(id);
    if (!row || !row.is_active || row.expires_at.getTime() <= now) {
      this.drop(id);
      return null;
    }
    const entry: Cached = {
      sessionId: id, userId: row.user_id, role: row.role,
      expiresAt: row.expires_at.getTime(), cachedAt: now, touchedAt: hit?.touchedAt ?? 0,
    };
    this.cache.set(id, entry);
    this.byToken.set(token, entry);
    this.tokenOf.set(id, token);
    if (now - entry.touchedAt > TOUCH_MS) this.touch(entry, now);
    return entry;
  }

  private touch(entry: Cached, now: number): void {
    entry.touchedAt = now;
    void this.store.touch(entry.sessionId).catch(() => {});
  }

  async revoke(sessionIds: string[]): Promise<void> {
    if (!sessionIds.length) return;
    await this.store.deleteMany(sessionIds);
    await this.bus.publish(TOPICS.sessionRevoked, { ids: sessionIds });
  }

  /** Ends every session of a user, optionally keeping one (sign out the others). */
  async revokeAllForUser(userId: string, keepSessionId?: string): Promise<void> {
    const removed = await this.store.deleteForUser(userId, keepSessionId);
    await this.bus.publish(TOPICS.sessionRevoked, { ids: removed, userId: keepSessionId ? undefined : userId });
  }

  setCookie(reply: FastifyReply, token: string): void {
    reply.setCookie(SESSION_COOKIE, token, {
      path: '/', httpOnly: true, sameSite: 'lax', secure: this.config.isProduction,
      maxAge: this.config.SESSION_TTL_DAYS * 86_400,
    });
  }

  clearCookie(reply: FastifyReply): void {
    reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: this.config.isProduction });
  }
}

/** What a read-only API key may send. */
const READ_METHODS = new Set(['GET', 'HEAD']);

export function registerSession(app: FastifyInstance, sessions: Sessions): void {
  app.decorateRequest('user', null);
  // Callback style with a synchronous fast path: a poll with a cached session neither hashes nor awaits.
  app.addHook('onRequest', (request, _reply, done) => {
    const token = request.cookies[SESSION_COOKIE];
    const hit = token && token.length < 200 ? sessions.cached(token) : undefined;
    if (hit) { request.user = hit; done(); return; }
    authenticate(request, token).then(() => done(), done);
  });
  async function authenticate(request: FastifyRequest, token: string | undefined): Promise<void> {
    if (token && token.length < 200) request.user = await sessions.resolve(token);
    // The customer API (routes marked apiKey) also accepts an API key instead of the cookie; no other route does.
    if (!request.user && request.routeOptions.config?.apiKey && sessions.apiKeyResolver) {
      const auth = request.headers.authorization;
      if (!auth?.startsWith('Bearer ')) return;
      request.user = await sessions.apiKeyResolver(auth.slice(7).trim());
      // A key was offered and is not valid: say so, rather than "please sign in" to a script that cannot.
      if (!request.user) throw new AppError('API_KEY_INVALID');
      if (request.user.apiKey?.scope === 'read' && !READ_METHODS.has(request.method)) throw new AppError('API_KEY_READ_ONLY');
    }
  }
}

/** onRequest hook for routes that need a signed-in customer: 401 before the body is parsed or validated. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  if (!request.user) throw new AppError('UNAUTHORIZED');
}
/** onRequest hook for operator routes: 401 for visitors, 403 for customers, before the body is parsed or validated. */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  if (!request.user) throw new AppError('UNAUTHORIZED');
  if (request.user.role !== 'admin') throw new AppError('FORBIDDEN');
}

/** The signed-in user of a route guarded by requireUser. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new AppError('UNAUTHORIZED');
  return request.user;
}

declare module 'fastify' {
  interface FastifyRequest { user: SessionUser | null }
  interface FastifyContextConfig { apiKey?: boolean }
}
