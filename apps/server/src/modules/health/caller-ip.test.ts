import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { plainAddress } from './caller-ip.routes.js';

describe('GET /api/v1/ip', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp(); });
  afterAll(async () => { await t.close(); });

  it('answers the caller\'s address as plain text, never cached, without a session', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/ip', remoteAddress: '127.0.3.7' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('127.0.3.7\n');
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('strips ::ffff: from an IPv4 client of a dual-stack socket and keeps IPv6 as it is', async () => {
    const mapped = await t.app.inject({ method: 'GET', url: '/api/v1/ip', remoteAddress: '::ffff:203.0.113.5' });
    expect(mapped.body).toBe('203.0.113.5\n');
    const v6 = await t.app.inject({ method: 'GET', url: '/api/v1/ip', remoteAddress: '2001:db8::7' });
    expect(v6.body).toBe('2001:db8::7\n');
    expect(plainAddress('::FFFF:198.51.100.1')).toBe('198.51.100.1');
    expect(plainAddress('::ffff:1')).toBe('::ffff:1');
  });

  it('ignores X-Forwarded-For outside production (no proxy is trusted there)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/ip', remoteAddress: '127.0.9.9', headers: { 'x-forwarded-for': '198.51.100.77' } });
    expect(response.body).toBe('127.0.9.9\n');
  });

  it('is limited per address: 120 a minute, then 429, while another address still gets its answer', async () => {
    const from = (remoteAddress: string) => t.app.inject({ method: 'GET', url: '/api/v1/ip', remoteAddress });
    for (let i = 0; i < 120; i += 1) expect((await from('198.51.100.20')).statusCode).toBe(200);
    const limited = await from('198.51.100.20');
    expect(limited.statusCode).toBe(429);
    expect((await from('198.51.100.21')).body).toBe('198.51.100.21\n');
  });

  it('is in the API reference', async () => {
    const doc = (await t.app.inject('/api/v1/openapi.json')).json() as { paths: Record<string, { get?: unknown }> };
    expect(doc.paths['/api/v1/ip']?.get).toBeDefined();
  });
});
