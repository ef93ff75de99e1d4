import { randomUUID } from 'node:crypto';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, onPostgres, type TestApp } from '../../../test/helpers.js';
import { createCustomer, json, seedTestCatalog } from '../../../test/fixtures.js';

const TOKEN = 'metrics-token-0123456789abcdef';
const scrape = (t: TestApp, authorization?: string) =>
  t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

/** The value of one sample in Prometheus text, or undefined when the series is not there. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe('GET /metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp(); });
  afterAll(async () => { await t.close(); });

  it('answers 404, with or without a bearer token, and is in no published document', async () => {
    expect((await scrape(t)).statusCode).toBe(404);
    const guessed = await scrape(t, `Bearer ${TOKEN}`);
    expect(guessed.statusCode).toBe(404);
    expect(guessed.body).not.toContain('cellport_');
    const doc = (await t.app.inject('/api/v1/openapi.json')).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  let url: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    t = await buildTestApp({ METRICS_TOKEN: TOKEN, MODEM_CONTROL: 'simulated', MODEM_SIM_DELAY_MS: '30', MODEM_SIM_SAME_IP_RATE: '0' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    url = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await t.close();
  });

  it('answers 401 with WWW-Authenticate without the token, with a wrong one, or another scheme', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789abcdef', `Bearer ${TOKEN}x`, `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`, 'Bearer ']) {
      const res = await scrape(t, authorization);
      expect(res.statusCode, authorization).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.body).not.toContain('cellport_');
    }
  });

  it('exports every listed series in the Prometheus text format, following what the server did', async () => {
    const before = await scrape(t, `Bearer ${TOKEN}`);
    expect(before.statusCode).toBe(200);
    expect(before.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(before.headers['cache-control']).toBe('no-store');
    const listed = { method: 'GET', route: '/api/v1/modems', status_class: '2xx' };
    const listedBefore = sample(before.body, 'cellport_http_request_duration_seconds_count', listed) ?? 0;
    // On PostgreSQL nothing may have gone through Kysely yet (LISTEN has a client of its own).
    const queriesBefore = sample(before.body, 'cellport_db_query_duration_seconds_count')!;
    expect(queriesBefore).toBeGreaterThanOrEqual(0);

    // A customer: lists their ports three times (one load, two from the kept list), polls notifications twice (the
    // second a conditional GET answered 304), buys a port from the balance, tops up with USDT and pays it.
    const catalog = await seedTestCatalog(t);
    const customer = await createCustomer(t, 1000);
    for (let i = 0; i < 3; i++) {
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/modems', ...json(customer.cookie) })).statusCode).toBe(200);
    }
    const polled = await t.app.inject({ method: 'GET', url: '/api/v1/notifications', ...json(customer.cookie) });
    const etag = polled.headers.etag as string;
    expect(etag).toBeTruthy();
    const unchanged = await t.app.inject({ method: 'GET', url: '/api/v1/notifications', ...json(customer.cookie, undefined, { 'if-none-match': etag }) });
    expect(unchanged.statusCode).toBe(304);
    const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(customer.cookie, {
      tariff_id: catalog.dedicatedMonth.id, country_id: catalog.usId, isShared: false, rotationInterval: 0, modemCount: 1,
    }) });
    expect(bought.statusCode, bought.body).toBe(200);
    const pending = await t.app.inject({ method: 'POST', url: '/api/v1/payment/crypto/pending', ...json(customer.cookie, { amount: '12.50', provider: 'crypto', coin: 'usdt' }) });
    expect(pending.statusCode, pending.body).toBe(200);
    const simulated = await t.app.inject({ method: 'POST', url: `/api/v1/pending-payments/${pending.json().data._id}/simulate`, ...json(customer.cookie) });
    expect(simulated.statusCode, simulated.body).toBe(200);
    // A job that fails (a row of a kind nothing handles, as an older or newer instance might leave): one failure,
    // then it waits to retry. Written straight into the table: schedule() refuses an undeclared kind.
    await t.ctx.db.insertInto('jobs').values({ kind: 'metrics-test-unknown', key: `metrics-test:${randomUUID()}`, run_at: new Date(), payload: '{}' }).execute();
    await t.app.jobs.runDueJobs();
    // The customer's realtime socket.
    const token = (await t.app.inject({ method: 'GET', url: '/api/v1/token', headers: { cookie: customer.cookie } })).json().token as string;
    const socket = connect(url, { path: '/socket.io', transports: ['websocket'], auth: { token }, reconnection: false, forceNew: true });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => { socket.once('connect', resolve); socket.once('connect_error', reject); });

    // The counts read from the database are kept 5 s: the next scrape comes "later".
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 10_000 });
    let after;
    try {
      after = await scrape(t, `Bearer ${TOKEN}`);
    } finally {
      vi.useRealTimers();
    }
    expect(after.statusCode).toBe(200);
    const text = after.body;
    const value = (name: string, labels?: Record<string, string>) => {
      const v = sample(text, name, labels);
      expect(v, `${name} ${JSON.stringify(labels ?? {})}`).toBeDefined();
      return v!;
    };

    // Requests by route pattern (never the raw URL) and status class.
    expect(value('cellport_http_request_duration_seconds_count', listed)).toBe(listedBefore + 3);
    expect(value('cellport_http_request_duration_seconds_bucket', { ...listed, le: '+Inf' })).toBe(listedBefore + 3);
    expect(value('cellport_http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/pending-payments/:id/simulate', status_class: '2xx' })).toBe(1);
    expect(value('cellport_http_request_duration_seconds_count', { method: 'GET', route: '/metrics', status_class: '4xx' })).toBe(5);
    expect(text).not.toContain(pending.json().data._id);

    // The database: the pool as it is, and the statements run since the first scrape.
    const database = onPostgres ? 'postgres' : 'pglite';
    expect(value('cellport_db_pool_max_connections', { database })).toBe(onPostgres ? 20 : 1);
    expect(value('cellport_db_pool_connections', { database })).toBeGreaterThanOrEqual(1);
    expect(value('cellport_db_pool_idle_connections', { database })).toBeGreaterThanOrEqual(0);
    expect(value('cellport_db_pool_waiting_queries', { database })).toBe(0);
    expect(value('cellport_db_query_duration_seconds_count')).toBeGreaterThan(queriesBefore + 10);
    expect(value('cellport_db_query_duration_seconds_sum')).toBeGreaterThan(0);
    expect(value('cellport_db_query_errors_total')).toBeGreaterThanOrEqual(0);

    // Jobs: the failed run, and the job waiting to retry; the bought port's term jobs are scheduled.
    expect(value('cellport_jobs_failures_total', { kind: 'metrics-test-unknown' })).toBe(1);
    expect(value('cellport_jobs_queue_depth', { state: 'retrying' })).toBe(1);
    expect(value('cellport_jobs_queue_depth', { state: 'scheduled' })).toBeGreaterThanOrEqual(1);
    expect(value('cellport_jobs_queue_depth', { state: 'due' })).toBe(0);

    // Polls: the ports list loaded once and served twice from memory; the notifications poll answered 304 once.
    expect(value('cellport_poll_cache_misses_total', { cache: 'ports_list', route: '/api/v1/modems' })).toBe(1);
    expect(value('cellport_poll_cache_hits_total', { cache: 'ports_list', route: '/api/v1/modems' })).toBe(2);
    expect(value('cellport_poll_cache_hits_total', { cache: 'poll_version', route: '/api/v1/notifications' })).toBe(1);
    expect(value('cellport_poll_cache_misses_total', { cache: 'poll_version', route: '/api/v1/notifications' })).toBe(1);

    // Realtime: the customer's socket on this instance; no agent connected.
    expect(value('cellport_realtime_connections', { server: 'customers' })).toBe(1);
    expect(value('cellport_realtime_connections', { server: 'agents' })).toBe(0);

    // What the database holds: the payments, the bought port, the modems in service by health.
    expect(value('cellport_payments', { provider: 'balance', outcome: 'completed' })).toBe(1);
    expect(value('cellport_payments', { provider: 'usdt', outcome: 'completed' })).toBe(1);
    expect(value('cellport_payments', { provider: 'card', outcome: 'failed' })).toBe(0);
    expect(value('cellport_ports', { state: 'active' })).toBe(1);
    expect(value('cellport_ports', { state: 'released' })).toBe(0);
    const inService = await t.ctx.db.selectFrom('modems').select((eb) => eb.fn.countAll<string>().as('n')).where('retired', '=', false).executeTakeFirstOrThrow();
    const health = ['online', 'degraded', 'offline'].map((h) => value('cellport_modems', { health: h }));
    expect(health.reduce((a, b) => a + b, 0)).toBe(Number(inService.n));
    expect(Number(inService.n)).toBeGreaterThan(0);

    // prom-client's process metrics.
    expect(value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(value('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('counts from the database at most every few seconds: a scrape right after another shows the same counts', async () => {
    const first = (await scrape(t, `Bearer ${TOKEN}`)).body;
    await t.ctx.db.updateTable('ports').set({ status: 'released' }).execute();
    const second = (await scrape(t, `Bearer ${TOKEN}`)).body;
    expect(sample(second, 'cellport_ports', { state: 'active' })).toBe(sample(first, 'cellport_ports', { state: 'active' }));
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 10_000 });
    try {
      const later = (await scrape(t, `Bearer ${TOKEN}`)).body;
      expect(sample(later, 'cellport_ports', { state: 'active' })).toBe(0);
      expect(sample(later, 'cellport_ports', { state: 'released' })).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
