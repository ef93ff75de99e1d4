import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { verifyDelivery, WebhookReceiver } from '../../../test/webhook-receiver.js';
import { createCustomer, json, seedTestCatalog, type Customer } from '../../../test/fixtures.js';
import { publishWebhookEvent } from './webhooks.repository.js';
import { parsePortList } from '../../lib/webhook-ports.js';
import { addressRefusal, postWebhook } from './webhook-target.js';
import { REFUSED_RANGES } from '@cellport/node-common/refused-addresses';
import { rangeSamples } from '@cellport/node-common/range-samples';
import { retryDelayMs } from './webhooks.service.js';

/**
 * A moment just after every row written so far. The database keeps microseconds and Date milliseconds, so a delivery
 * written in this very millisecond (next_attempt_at = now()) is not yet due at `new Date()`; that flaked under load.
 */
const justAfter = () => new Date(Date.now() + 1);

/**
 * One round of the job runner at `now`, then the deliveries it started: the round hands them to the webhooks'
 * worker and does not wait for them (issue 26), so the test waits for the worker to be idle.
 */
async function deliverDue(app: TestApp, now: Date): Promise<void> {
  await app.app.jobs.runDueJobs(now);
  await app.app.webhooks.idle();
}

let t: TestApp;
let rx: WebhookReceiver;
let alice: Customer;
let bob: Customer;
let cat: Awaited<ReturnType<typeof seedTestCatalog>>;

beforeAll(async () => {
  rx = await WebhookReceiver.start();
  t = await buildTestApp({ MODEM_CONTROL: 'simulated', MODEM_SIM_DELAY_MS: '5', MODEM_SIM_SAME_IP_RATE: '0' });
  cat = await seedTestCatalog(t);
  alice = await createCustomer(t, 1000);
  bob = await createCustomer(t);
});
afterAll(async () => { await t?.close(); await rx?.stop(); });

async function createEndpoint(c: Customer, url: string, eventTypes: string[], app = t): Promise<{ id: string; secret: string }> {
  const res = await app.app.inject({ method: 'POST', url: '/api/v1/webhooks', ...json(c.cookie, { url, eventTypes }) });
  expect(res.statusCode, res.body).toBe(200);
  return { id: res.json().data._id, secret: res.json().secret };
}
const deliveries = (id: string) => t.ctx.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', id).orderBy('seq').execute();

describe('webhook endpoints', () => {
  it('registers an endpoint with a secret shown once (stored encrypted), lists, updates and deletes it, per customer', async () => {
    const { id, secret } = await createEndpoint(alice, `${rx.url}/crud`, ['port.bought', 'port.rotated']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const row = await t.ctx.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret.slice(6));
    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/webhooks', ...json(alice.cookie) })).json();
    expect(list.data).toEqual([expect.objectContaining({ _id: id, url: `${rx.url}/crud`, eventTypes: ['port.bought', 'port.rotated'], enabled: true })]);
    expect(JSON.stringify(list)).not.toContain(secret);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/webhooks', ...json(bob.cookie) })).json().data).toEqual([]);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/webhooks/${id}`, ...json(bob.cookie) })).statusCode).toBe(404);
    const patched = await t.app.inject({ method: 'PATCH', url: `/api/v1/webhooks/${id}`, ...json(alice.cookie, { eventTypes: ['modem.down'] }) });
    expect(patched.json().data.eventTypes).toEqual(['modem.down']);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/webhooks/${id}`, ...json(alice.cookie) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/webhooks', ...json(alice.cookie) })).json().data).toEqual([]);
  });

  it('refuses junk with 400 (not 5xx), a visitor with 401, and works with an API key', async () => {
    for (const body of [{ url: 'ftp://x.test/', eventTypes: ['port.bought'] }, { url: 'http://u:p@x.test/', eventTypes: ['port.bought'] },
      { url: 'https://x.test/', eventTypes: [] }, { url: 'https://x.test/', eventTypes: ['nope'] }, { url: 'https://x\u0000.test/', eventTypes: ['port.bought'] }]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/webhooks', ...json(alice.cookie, body) });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/webhooks/not-a-uuid/deliveries', ...json(alice.cookie) })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/webhooks' })).statusCode).toBe(401);
    const key = (await t.app.inject({ method: 'POST', url: '/api/v1/api-keys', ...json(alice.cookie, { name: 'hooks' }) })).json().key;
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/webhooks', headers: { authorization: `Bearer ${key}` }, payload: { url: 'https://hooks.example.com/x', eventTypes: ['payment.completed'] } });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data._id;
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries`, headers: { authorization: `Bearer ${key}` } })).json().data).toEqual([]);
    await t.app.inject({ method: 'DELETE', url: `/api/v1/webhooks/${id}`, headers: { authorization: `Bearer ${key}` } });
  });
});

describe('webhook ports (WEBHOOKS_ALLOWED_PORTS)', () => {
  it('refuses a port outside the list when an endpoint is saved, naming it and the allowed ones', async () => {
    const c = await createCustomer(t);
    const create = (url: string) => t.app.inject({ method: 'POST', url: '/api/v1/webhooks', ...json(c.cookie, { url, eventTypes: ['balance.low'] }) });
    for (const [url, port] of [['https://hooks.example.com:25/x', 25], ['http://hooks.example.com:6379/', 6379], ['https://hooks.example.com:8000/', 8000]] as const) {
      const res = await create(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({
        code: 'WEBHOOK_PORT_NOT_ALLOWED', port, allowed: '80, 443, 8080, 8443',
        error: `Webhook addresses can use only these ports: 80, 443, 8080, 8443. Port ${port} is not one of them.`,
      });
    }
    const ok: string[] = [];
    for (const url of ['https://hooks.example.com/x', 'http://hooks.example.com/x', 'https://hooks.example.com:8443/x', 'http://hooks.example.com:8080/x']) {
      const res = await create(url);
      expect(res.statusCode, url).toBe(200);
      ok.push(res.json().data._id);
    }
    const moved = await t.app.inject({ method: 'PATCH', url: `/api/v1/webhooks/${ok[0]}`, ...json(c.cookie, { url: 'https://hooks.example.com:5432/' }) });
    expect(moved.json()).toMatchObject({ code: 'WEBHOOK_PORT_NOT_ALLOWED', port: 5432 });
    const stored = await t.ctx.db.selectFrom('webhook_endpoints').select('url').where('id', '=', ok[0]!).executeTakeFirstOrThrow();
    expect(stored.url).toBe('https://hooks.example.com/x');
    // Loopback under the unsafe WEBHOOKS_ALLOW_LOOPBACK (these tests' receiver) may use any port.
    expect((await create(`${rx.url}/any-port`)).statusCode).toBe(200);
    expect((await create('http://localhost:6379/')).statusCode).toBe(200);
  });

  it('refuses it again at delivery, before connecting (an endpoint saved under a wider list)', async () => {
    const c = await createCustomer(t);
    const { id } = await createEndpoint(c, 'https://hooks.example.com/x', ['balance.low']);
    await t.ctx.db.updateTable('webhook_endpoints').set({ url: 'http://8.8.8.8:25/hook' }).where('id', '=', id).execute();
    await publishWebhookEvent(t.ctx.db, c.id, 'balance.low', {});
    await deliverDue(t, justAfter());
    const [row] = await deliveries(id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, response_status: null, last_error: 'refused: port 25 is not allowed for webhooks (80, 443, 8080, 8443)' });
    const strictAnswer = await postWebhook({ url: 'https://8.8.8.8:8444/', headers: {}, body: '{}' }, { allowLoopback: false, timeoutMs: 1000, allowedPorts: parsePortList('443,8000-8443') });
    expect(strictAnswer).toEqual({ status: null, latencyMs: 0, error: 'refused: port 8444 is not allowed for webhooks (443, 8000-8443)' });
  });

  it('reads the setting as ports and ranges, and refuses a setting that is not one', () => {
    const env = { NODE_ENV: 'development', DATA_DIR: '/tmp/cellport-test' };
    expect(loadConfig(env).WEBHOOKS_ALLOWED_PORTS).toBe('80,443,8080,8443');
    expect(parsePortList(loadConfig({ ...env, WEBHOOKS_ALLOWED_PORTS: '443, 8000-8999' }).WEBHOOKS_ALLOWED_PORTS)).toEqual([[443, 443], [8000, 8999]]);
    for (const bad of ['', 'http', '0', '70000', '9000-8000', '80,,x']) {
      expect(() => loadConfig({ ...env, WEBHOOKS_ALLOWED_PORTS: bad }), bad).toThrow(/WEBHOOKS_ALLOWED_PORTS/);
    }
  });
});

describe('webhook delivery', () => {
  it('delivers port.bought and port.rotated signed the Standard Webhooks way (verified with the standardwebhooks package)', async () => {
    const { id, secret } = await createEndpoint(alice, `${rx.url}/events`, ['port.bought', 'port.rotated']);
    const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(alice.cookie, {
      tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
    }) });
    expect(bought.statusCode, bought.body).toBe(200);
    const portId = bought.json().data.modems[0]._id;
    await deliverDue(t, justAfter());
    const [first] = rx.at('/events');
    expect(first).toBeDefined();
    const payload = verifyDelivery(secret, first!) as { type: string; data: { ports: Array<{ id: string }> } };
    expect(payload.type).toBe('port.bought');
    expect(payload.data.ports.map((p) => p.id)).toEqual([portId]);
    expect(first!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(() => verifyDelivery(secret, { ...first!, body: first!.body.replace('port.bought', 'port.renewed') })).toThrow();

    const rotated = await t.app.inject({ method: 'POST', url: `/api/v1/modems/${portId}/rotate`, ...json(alice.cookie) });
    expect(rotated.statusCode, rotated.body).toBe(200);
    await deliverDue(t, justAfter());
    const second = rx.at('/events')[1];
    expect(verifyDelivery(secret, second!)).toMatchObject({ type: 'port.rotated', data: { port: { id: portId }, newIp: rotated.json().new_ip } });

    const log = (await t.app.inject({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries`, ...json(alice.cookie) })).json().data;
    expect(log.map((d: { eventType: string }) => d.eventType)).toEqual(['port.rotated', 'port.bought']);
    expect(log[0]).toMatchObject({ status: 'succeeded', attempts: 1, responseStatus: 204, error: null });
    expect(typeof log[0].latencyMs).toBe('number');
  });

  it('sends a test event and redelivers one delivery with the same webhook-id', async () => {
    const { id, secret } = await createEndpoint(bob, `${rx.url}/test`, ['balance.low']);
    const test = await t.app.inject({ method: 'POST', url: `/api/v1/webhooks/${id}/test`, ...json(bob.cookie) });
    expect(test.json().data).toMatchObject({ eventType: 'webhook.test', status: 'pending' });
    await deliverDue(t, justAfter());
    expect(verifyDelivery(secret, rx.at('/test')[0]!)).toMatchObject({ type: 'webhook.test' });
    const again = await t.app.inject({ method: 'POST', url: `/api/v1/webhooks/${id}/deliveries/${test.json().data._id}/redeliver`, ...json(bob.cookie) });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.msgId).toBe(test.json().data.msgId);
    await deliverDue(t, justAfter());
    expect(rx.at('/test').map((r) => r.headers['webhook-id'])).toEqual([test.json().data.msgId, test.json().data.msgId]);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/webhooks/${id}/deliveries/${test.json().data._id}/redeliver`, ...json(alice.cookie) })).statusCode).toBe(404);
  });

  it('retries a 500 with exponential backoff, keeping the endpoint\'s order', async () => {
    const c = await createCustomer(t);
    const { id } = await createEndpoint(c, `${rx.url}/retry`, ['balance.low']);
    rx.answers.set('/retry', [500, 500]);
    for (const n of [1, 2, 3]) await publishWebhookEvent(t.ctx.db, c.id, 'balance.low', { n });
    const t0 = justAfter();
    await deliverDue(t, t0);
    let rows = await deliveries(id);
    expect(rows.map((r) => [r.status, r.attempts, r.response_status])).toEqual([['pending', 1, 500], ['pending', 0, null], ['pending', 0, null]]);
    expect(rows[0]!.next_attempt_at.getTime() - t0.getTime()).toBe(30_000);
    await deliverDue(t, new Date(t0.getTime() + 29_000)); // not yet due; the later events wait behind it
    expect(rx.at('/retry')).toHaveLength(1);
    const t1 = new Date(t0.getTime() + 30_000);
    await deliverDue(t, t1);
    rows = await deliveries(id);
    expect(rows[0]!.attempts).toBe(2);
    expect(rows[0]!.next_attempt_at.getTime() - t1.getTime()).toBe(60_000);
    await deliverDue(t, new Date(t1.getTime() + 60_000));
    rows = await deliveries(id);
    expect(rows.map((r) => r.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    const bodies = rx.at('/retry').map((r) => (JSON.parse(r.body) as { data: { n: number } }).data.n);
    expect(bodies).toEqual([1, 1, 1, 2, 3]);
    expect(new Set(rx.at('/retry').slice(0, 3).map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect([1, 2, 3, 4, 11, 12, 30].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000, 240_000, 30_720_000, 43_200_000, 43_200_000]);
  });

  it('disables an endpoint that keeps failing for 3 days and tells its owner; held events go out when it is turned back on', async () => {
    const c = await createCustomer(t);
    const { id } = await createEndpoint(c, `${rx.url}/down`, ['balance.low']);
    rx.answers.set('/down', Array(100).fill(503));
    await publishWebhookEvent(t.ctx.db, c.id, 'balance.low', { n: 1 });
    await publishWebhookEvent(t.ctx.db, c.id, 'balance.low', { n: 2 });
    // Not `new Date()`: a delivery written in this very millisecond is not due yet, and `now` would never move on.
    let now = justAfter();
    for (let i = 0; i < 40; i++) {
      await deliverDue(t, now);
      const head = (await deliveries(id))[0]!;
      if (head.status !== 'pending') break;
      now = head.next_attempt_at;
    }
    const rows = await deliveries(id);
    expect(rows.map((r) => r.status)).toEqual(['failed', 'pending']);
    expect(rows[0]!.attempts).toBeGreaterThan(10);
    expect(now.getTime() - rows[0]!.created_at.getTime()).toBeGreaterThanOrEqual(72 * 3600_000);
    const endpoint = (await t.app.inject({ method: 'GET', url: '/api/v1/webhooks', ...json(c.cookie) })).json().data[0];
    expect(endpoint).toMatchObject({ enabled: false, disabledReason: expect.stringContaining('72 hours') });
    const notes = await t.ctx.db.selectFrom('notifications').select('text').where('user_id', '=', c.id).execute();
    expect(notes.map((n) => n.text)).toEqual([expect.stringContaining(`${rx.url}/down`)]);
    // While disabled, new events are not queued for it.
    await publishWebhookEvent(t.ctx.db, c.id, 'balance.low', { n: 3 });
    expect(await deliveries(id)).toHaveLength(2);
    rx.answers.set('/down', []);
    const before = rx.at('/down').length;
    await t.app.inject({ method: 'PATCH', url: `/api/v1/webhooks/${id}`, ...json(c.cookie, { enabled: true }) });
    await deliverDue(t, new Date(now.getTime() + 1000));
    expect(rx.at('/down').slice(before).map((r) => (JSON.parse(r.body) as { data: { n: number } }).data.n)).toEqual([2]);
  });

  it('does not follow redirects', async () => {
    const c = await createCustomer(t);
    const { id } = await createEndpoint(c, `${rx.url}/redirect`, ['balance.low']);
    await publishWebhookEvent(t.ctx.db, c.id, 'balance.low', {});
    await deliverDue(t, justAfter());
    const [row] = await deliveries(id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, response_status: 302 });
    expect(row!.last_error).toContain('not followed');
    expect(rx.at('/landing')).toHaveLength(0);
  });

  it('sends modem.down and modem.up once when the hosts module announces an online change', async () => {
    const c = await createCustomer(t, 100);
    const { id } = await createEndpoint(c, `${rx.url}/modem`, ['modem.down', 'modem.up']);
    const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, {
      tariff_id: cat.dedicatedWeek.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
    }) });
    expect(bought.statusCode, bought.body).toBe(200);
    const portId = bought.json().data.modems[0]._id;
    const modem = await t.ctx.db.selectFrom('ports').innerJoin('modems', 'modems.id', 'ports.modem_id').select(['modems.imei'])
      .where('ports.id', '=', portId).executeTakeFirstOrThrow();
    const announce = (online: boolean) => t.ctx.bus.publish('modem:status', { userIds: [c.id], IMEI: modem.imei, applyStatus: 'idle', ext_ip: '1.2.3.4', online });
    await announce(false);
    await announce(false); // an ext_ip change while down: no second event
    await announce(true);
    await t.ctx.bus.idle(); // the listener's work for all three, judged in order
    await deliverDue(t, justAfter());
    await deliverDue(t, justAfter());
    expect((await deliveries(id)).map((d) => d.event_type)).toEqual(['modem.down', 'modem.up']);
    expect(rx.at('/modem').map((r) => JSON.parse(r.body) as { type: string; data: { ports: Array<{ id: string }> } }))
      .toEqual([expect.objectContaining({ type: 'modem.down', data: { imei: modem.imei, ports: [expect.objectContaining({ id: portId })] } }),
        expect.objectContaining({ type: 'modem.up' })]);
  });
});

describe('a slow endpoint (issue 26)', () => {
  it('holds neither the job runner nor another customer\'s delivery while it drips its answer; cut off, it failed', async () => {
    // A deadline far past the test: the drip stays connected until the receiver cuts it.
    const slow = await buildTestApp({ MODEM_CONTROL: 'simulated', MODEM_SIM_DELAY_MS: '5', WEBHOOKS_TIMEOUT_MS: '60000' });
    try {
      const slowCat = await seedTestCatalog(slow);
      const dripper = await createCustomer(slow);
      const other = await createCustomer(slow, 100);
      const drip = await createEndpoint(dripper, `${rx.url}/drip`, ['balance.low'], slow);
      await createEndpoint(other, `${rx.url}/beside-drip`, ['balance.low'], slow);
      rx.answers.set('/drip', ['drip']);
      const bought = await slow.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(other.cookie, {
        tariff_id: slowCat.dedicatedWeek.id, country_id: slowCat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
      }) });
      expect(bought.statusCode, bought.body).toBe(200);
      const port = bought.json().data.modems[0] as { _id: string; expiresAt: string };
      await publishWebhookEvent(slow.ctx.db, dripper.id, 'balance.low', { n: 1 });
      await publishWebhookEvent(slow.ctx.db, dripper.id, 'balance.low', { n: 2 });

      // Round 1 starts the drip and returns (it used to wait for the send, so round 2 never came).
      await slow.app.jobs.runDueJobs(justAfter());
      await rx.next((r) => r.path === '/drip');
      // Round 2, the drip still connected: the port's term is over, another customer has an event.
      await publishWebhookEvent(slow.ctx.db, other.id, 'balance.low', { n: 3 });
      await slow.app.jobs.runDueJobs(new Date(Date.parse(port.expiresAt) + 1000));
      const beside = await rx.next((r) => r.path === '/beside-drip');
      expect(JSON.parse(beside.body)).toMatchObject({ data: { n: 3 } });
      const row = await slow.ctx.db.selectFrom('ports').select('status').where('id', '=', port._id).executeTakeFirstOrThrow();
      expect(row.status).toBe('expired');
      expect(rx.dripping('/drip')).toBe(true);
      // One delivery per endpoint at a time: the dripper's second event waits behind the first.
      expect(rx.at('/drip')).toHaveLength(1);

      // The receiver closes mid-body: a 200 whose body never came whole is a failed attempt, not a success.
      rx.cutDrips('/drip');
      await slow.app.webhooks.idle();
      const rows = await slow.ctx.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', drip.id).orderBy('seq').execute();
      expect(rows.map((r) => [r.status, r.attempts, r.response_status, r.last_error])).toEqual([
        ['pending', 1, 200, 'the answer was cut off before its end'], ['pending', 0, null, null],
      ]);
    } finally {
      await slow.close();
    }
  });

  it('ends a delivery at WEBHOOKS_TIMEOUT_MS counted over the whole exchange, however steadily the answer drips', async () => {
    const quick = await buildTestApp({ WEBHOOKS_TIMEOUT_MS: '2000' });
    try {
      const c = await createCustomer(quick);
      const { id } = await createEndpoint(c, `${rx.url}/drip-deadline`, ['balance.low'], quick);
      rx.answers.set('/drip-deadline', ['drip']);
      await publishWebhookEvent(quick.ctx.db, c.id, 'balance.low', {});
      await deliverDue(quick, justAfter());
      const [row] = await quick.ctx.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', id).execute();
      expect(row).toMatchObject({ status: 'pending', attempts: 1, response_status: 200, last_error: 'no complete answer within 2000 ms' });
      // The deadline timer counts from the event loop's cached clock, which can lag performance.now() (where the
      // latency starts) by a few ms: CI once saw 1999. Ending well before the deadline would show far less.
      expect(row!.latency_ms).toBeGreaterThanOrEqual(1990);
      // The sender left; the receiver, a megabyte to drip, had not finished.
      await rx.dripsEnded('/drip-deadline');
      expect(rx.at('/drip-deadline')).toHaveLength(1);
    } finally {
      await quick.close();
    }
  });

  it('reads at most 16 KiB of an answer: a 2xx with more is accepted there, without waiting for the rest', async () => {
    const c = await createCustomer(t);
    const { id } = await createEndpoint(c, `${rx.url}/flood`, ['balance.low'], t);
    rx.answers.set('/flood', ['flood']);
    await publishWebhookEvent(t.ctx.db, c.id, 'balance.low', {});
    await deliverDue(t, justAfter()); // the default 10 s deadline is far off: accepted at the cap, not cut at the deadline
    const [row] = await deliveries(id);
    expect(row).toMatchObject({ status: 'succeeded', attempts: 1, response_status: 200, last_error: null });
    await rx.dripsEnded('/flood'); // the sender left mid-body
  });

  it('counts a body cut off before its Content-Length as a failure', async () => {
    const c = await createCustomer(t);
    const { id } = await createEndpoint(c, `${rx.url}/truncated`, ['balance.low'], t);
    rx.answers.set('/truncated', ['truncate']);
    await publishWebhookEvent(t.ctx.db, c.id, 'balance.low', {});
    await deliverDue(t, justAfter());
    const [row] = await deliveries(id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, response_status: 200, last_error: 'the answer was cut off before its end' });
  });
});

describe('SSRF', () => {
  it('refuses loopback, private and link-local addresses (also a name resolving to loopback) when loopback is not allowed', async () => {
    const port = new URL(rx.url).port;
    const strict = await buildTestApp({ WEBHOOKS_ALLOW_LOOPBACK: 'false', WEBHOOKS_ALLOWED_PORTS: `80,443,${port}` });
    try {
      expect(strict.config.webhooksAllowLoopback).toBe(false);
      const c = await createCustomer(strict);
      // Without the unsafe setting, loopback has no port of its own either.
      const other = await strict.app.inject({ method: 'POST', url: '/api/v1/webhooks', ...json(c.cookie, { url: 'http://127.0.0.1:6379/', eventTypes: ['balance.low'] }) });
      expect(other.json()).toMatchObject({ code: 'WEBHOOK_PORT_NOT_ALLOWED', port: 6379, allowed: `80, 443, ${port}` });
      const targets = [`http://127.0.0.1:${port}/ssrf`, `http://localhost:${port}/ssrf`, `http://[::ffff:127.0.0.1]:${port}/ssrf`,
        'http://10.1.2.3/ssrf', 'http://169.254.169.254/latest/meta-data', 'http://192.168.1.1/', 'http://[fe80::1]/'];
      const ids: string[] = [];
      for (const url of targets) ids.push((await createEndpoint(c, url, ['balance.low'], strict)).id);
      await publishWebhookEvent(strict.ctx.db, c.id, 'balance.low', {});
      await deliverDue(strict, justAfter());
      const rows = await strict.ctx.db.selectFrom('webhook_deliveries').select(['endpoint_id', 'status', 'last_error', 'response_status'])
        .where('user_id', '=', c.id).execute();
      expect(rows).toHaveLength(targets.length);
      for (const row of rows) {
        expect(row, targets[ids.indexOf(row.endpoint_id)]).toMatchObject({ status: 'pending', response_status: null, last_error: expect.stringMatching(/^refused: .* is a (loopback|private|link-local) address/) });
      }
      expect(rx.at('/ssrf')).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });

  it('classifies addresses: loopback passes only with the unsafe setting (on outside production), private and link-local never', async () => {
    expect(loadConfig({ NODE_ENV: 'development', DATA_DIR: '/tmp/cellport-test' }).webhooksAllowLoopback).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', DATA_DIR: '/tmp/cellport-test', WEBHOOKS_ALLOW_LOOPBACK: 'false' }).webhooksAllowLoopback).toBe(false);
    for (const ip of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:7f00:1']) {
      expect(addressRefusal(ip, false)).toBe('loopback');
      expect(addressRefusal(ip, true)).toBeNull();
    }
    for (const ip of ['10.0.0.1', '172.16.5.5', '192.168.0.1', '100.64.0.1', '0.0.0.0', '::', 'fd00::1', '::ffff:10.0.0.1']) {
      expect(addressRefusal(ip, true), ip).toBe('private');
    }
    for (const ip of ['169.254.169.254', 'fe80::1']) expect(addressRefusal(ip, true)).toBe('link-local');
    for (const ip of ['8.8.8.8', '2606:4700::1111']) expect(addressRefusal(ip, false)).toBeNull();
    // Every range of the table shared with the agent (@cellport/node-common), at both edges and in mapped form.
    const reason = { special: 'private', private: 'private', 'link-local': 'link-local', loopback: 'loopback' } as const;
    for (const range of REFUSED_RANGES) {
      for (const ip of rangeSamples(range)) expect(addressRefusal(ip, false), `${ip} (${range.what})`).toBe(reason[range.kind]);
    }
    const rxPort = parsePortList(new URL(rx.url).port);
    const answer = await postWebhook({ url: `${rx.url}/never`, headers: {}, body: '{}' }, { allowLoopback: false, timeoutMs: 1000, allowedPorts: rxPort });
    expect(answer).toMatchObject({ status: null, error: expect.stringContaining('loopback') });
    expect(rx.at('/never')).toHaveLength(0);
  });
});
