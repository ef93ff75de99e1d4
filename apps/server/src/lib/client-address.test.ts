import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../app.js';
import { ConfigError, loadConfig } from '../config.js';
import { buildTestApp } from '../../test/helpers.js';
import { openTestDatabase } from '../../test/template-db.js';
import { clientAddress, trustsForwardedFor } from './client-address.js';

// Issue 26 item 8: X-Forwarded-For was believed from any peer in production, so 30 requests with made-up
// addresses all passed a per-address limit of 20. Only TRUSTED_PROXIES may now speak for a client.
const TEST_ENV = { NODE_ENV: 'test', CAPTCHA_PROVIDER: 'off', PUBLIC_URL: 'http://localhost:3000', DATA_DIR: '/tmp/cellport-test', WEB_DIST: '/nonexistent' };

/** The app as production builds it (isProduction decides what used to be trusted), on a test database. */
async function productionLikeApp(env: Record<string, string>) {
  const config = { ...loadConfig({ ...TEST_ENV, ...env }), isProduction: true };
  const database = await openTestDatabase(inject('dbTemplate'));
  const { app } = await buildApp({ config, database, logger: false });
  await app.ready();
  return { app, async close() { await app.close(); await database.close(); } };
}

const ipOf = async (app: Awaited<ReturnType<typeof productionLikeApp>>['app'], remoteAddress: string, forwarded?: string) =>
  (await app.inject({ url: '/api/v1/ip', remoteAddress, headers: forwarded ? { 'x-forwarded-for': forwarded } : {} })).body.trim();

describe('whose X-Forwarded-For is believed (TRUSTED_PROXIES)', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => { await close?.(); close = undefined; });

  it('in production with no trusted proxies, a made-up X-Forwarded-For neither moves the address nor escapes the limit', async () => {
    const t = await productionLikeApp({ RATE_LIMIT_AUTH_PER_MINUTE: '20' });
    close = t.close;
    expect(await ipOf(t.app, '203.0.113.9', '198.51.100.1')).toBe('203.0.113.9');
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await t.app.inject({
        method: 'POST', url: '/api/v1/check-credentials', remoteAddress: '203.0.113.9',
        headers: { origin: 'http://localhost:3000', 'x-forwarded-for': `198.51.100.${i}` },
        payload: { login: 'ghost@example.com', password: 'x' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });

  it('believes the hops its configured proxies add, and only those', async () => {
    const t = await productionLikeApp({ TRUSTED_PROXIES: '10.0.0.0/8, ::1' });
    close = t.close;
    expect(await ipOf(t.app, '10.1.2.3', '198.51.100.7')).toBe('198.51.100.7');
    // The client's own made-up entry comes first; the proxy appends the real peer, which is what counts.
    expect(await ipOf(t.app, '10.1.2.3', '192.0.2.1, 198.51.100.7')).toBe('198.51.100.7');
    // Two trusted hops (10.x behind ::1) are walked through.
    expect(await ipOf(t.app, '::1', '198.51.100.8, 10.9.9.9')).toBe('198.51.100.8');
    expect(await ipOf(t.app, '::ffff:10.1.2.3', '198.51.100.9')).toBe('198.51.100.9');
    // Anyone else speaks only for themselves.
    expect(await ipOf(t.app, '203.0.113.9', '198.51.100.7')).toBe('203.0.113.9');
    expect(await ipOf(t.app, '127.0.0.1', '198.51.100.7')).toBe('127.0.0.1');
  });

  it('the realtime handshake reads the same address as Fastify', async () => {
    const trust = trustsForwardedFor({ TRUSTED_PROXIES: '10.0.0.0/8,::1' });
    const raw = (remoteAddress: string, forwarded?: string) =>
      ({ socket: { remoteAddress }, headers: forwarded ? { 'x-forwarded-for': forwarded } : {} }) as unknown as IncomingMessage;
    expect(clientAddress(raw('10.1.2.3', '192.0.2.1, 198.51.100.7'), trust)).toBe('198.51.100.7');
    expect(clientAddress(raw('::1', '198.51.100.8, 10.9.9.9'), trust)).toBe('198.51.100.8');
    expect(clientAddress(raw('203.0.113.9', '198.51.100.7'), trust)).toBe('203.0.113.9');
    expect(clientAddress(raw('10.1.2.3'), trust)).toBe('10.1.2.3');
    expect(clientAddress(raw('10.1.2.3', '198.51.100.7'), trustsForwardedFor({ TRUSTED_PROXIES: '' }))).toBe('10.1.2.3');
  });

  it('refuses a TRUSTED_PROXIES entry that is not an address or range', async () => {
    for (const bad of ['proxy.example', '10.0.0.0/33', '::1/129', '10.0.0.1/8/1', '10.0.0.0/x']) {
      expect(() => loadConfig({ ...TEST_ENV, TRUSTED_PROXIES: bad }), bad).toThrow(ConfigError);
    }
    const t = await buildTestApp({ TRUSTED_PROXIES: '127.0.0.1, fd00::/8' });
    close = t.close;
    expect(t.config.TRUSTED_PROXIES).toBe('127.0.0.1, fd00::/8');
  });
});
