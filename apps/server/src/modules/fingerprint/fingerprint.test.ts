import type { AddressInfo } from 'node:net';
import { HOST_PROTOCOL, type DesiredState, type Heartbeat } from '@cellport/shared/schemas/host-protocol';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { call, signedIn } from '../../../test/console-helpers.js';
import { createCustomer, json, portsAfterAnnouncements, seedTestCatalog, type Customer } from '../../../test/fixtures.js';
import { issueHostKey } from '../hosts/index.js';

// Issue 30, the product side: presets listed, chosen per port (own → modem default → tariff default → native), sent
// to the agent in the desired state within seconds, refused on a host that cannot apply them, failures shown; the
// check is the customer's own port only, needs an echo, and is rate-limited.

let t: TestApp;
let base: string;
let cat: Awaited<ReturnType<typeof seedTestCatalog>>;
let alice: Customer;
let bob: Customer;
let port: { _id: string; IMEI: string };
let hostId: string;
let agent: Socket;
const states: DesiredState[] = [];

interface ListedFingerprint { preset: string | null; active: string; source: string; available: boolean; unavailableReason: string | null; failing: string | null }
const fingerprintOf = async (who: Customer, id = port._id) =>
  (await portsAfterAnnouncements<{ _id: string; fingerprint: ListedFingerprint }>(t, who.cookie)).find((p) => p._id === id)!.fingerprint;
const patch = (who: Customer, body: unknown, id = port._id) => t.app.inject({ method: 'PATCH', url: `/api/v1/modems/${id}`, ...json(who.cookie, body) });
const presetSent = (s: DesiredState) => s.modems.flatMap((m) => m.ports).find((p) => p.id === port._id)?.fingerprint;
/** The first desired state pushed to the agent (already or later) whose preset for the port is `preset`, within `ms`. */
function stateWith(preset: string | undefined, ms: number): Promise<DesiredState> {
  const seen = states.find((s) => presetSent(s) === preset && s !== states[0]);
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no state with ${preset} within ${ms} ms`)), ms);
    const onState = (s: DesiredState) => {
      if (presetSent(s) !== preset) return;
      clearTimeout(timer);
      agent.off('state', onState);
      resolve(s);
    };
    agent.on('state', onState);
  });
}
const heartbeat = (fingerprint: Heartbeat['fingerprint']) => agent.timeout(10_000).emitWithAck('heartbeat', {
  agentVersion: '0.3.0-test', uptimeSeconds: 5, stateVersion: states.at(-1)?.version ?? null, modems: [], ...(fingerprint ? { fingerprint } : {}),
} satisfies Heartbeat);

beforeAll(async () => {
  t = await buildTestApp({ MODEM_CONTROL: 'simulated', MODEM_SIM_DELAY_MS: '5', MODEM_SIM_SAME_IP_RATE: '0' });
  cat = await seedTestCatalog(t);
  alice = await createCustomer(t, 1000);
  bob = await createCustomer(t, 1000, 'ru');
  const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(alice.cookie, {
    tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
  }) });
  expect(bought.statusCode, bought.body).toBe(200);
  port = bought.json().data.modems[0];
  hostId = (await t.ctx.db.selectFrom('modems').select('host_id').where('imei', '=', port.IMEI).executeTakeFirstOrThrow()).host_id;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  // The host's agent, as the host protocol describes it: a socket.io client with the host's key.
  agent = connect(base, { path: HOST_PROTOCOL.path, transports: ['websocket'], auth: { key: await issueHostKey(t.ctx.db, hostId) }, reconnection: false, forceNew: true });
  agent.on('state', (s: DesiredState) => states.push(s));
  await new Promise<void>((resolve, reject) => { agent.once('connect', () => resolve()); agent.once('connect_error', reject); });
});
afterAll(async () => {
  agent?.close();
  await t?.close();
});

describe('fingerprint presets', () => {
  it('lists the presets with what each should produce, named in the reader\'s language', async () => {
    const en = await t.app.inject({ method: 'GET', url: '/api/v1/fingerprint-presets', ...json(alice.cookie) });
    expect(en.statusCode, en.body).toBe(200);
    const presets = en.json().presets as Array<{ id: string; name: string; p0f: { label: string }; ja4t: string; ttl: number }>;
    expect(presets.map((p) => p.id)).toEqual(['native', 'windows', 'macos', 'ios', 'android']);
    expect(presets[1]).toMatchObject({ id: 'windows', name: 'Windows', ttl: 128, p0f: { label: 'Windows NT kernel' }, ja4t: '64240_2-1-3-1-1-4_1460_8' });
    const ru = await t.app.inject({ method: 'GET', url: '/api/v1/fingerprint-presets?lng=ru', ...json(alice.cookie) });
    expect(ru.json().presets[0].name).toBe('Родной (Linux)');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/fingerprint-presets' })).statusCode).toBe(401);
  });

  it('is not offered on a host whose agent never said it can, and says why', async () => {
    expect(await fingerprintOf(alice)).toMatchObject({ preset: null, active: 'native', source: 'none', available: false, failing: null });
    expect((await fingerprintOf(alice)).unavailableReason).toMatch(/has not reported/);
    const refused = await patch(alice, { fingerprint: 'windows' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('FINGERPRINT_UNAVAILABLE');
    // The agent says it cannot (not root): that reason is shown.
    expect(await heartbeat({ supported: false, reason: 'the agent is not root' })).toEqual({ ok: true });
    expect(await fingerprintOf(alice)).toMatchObject({ available: false, unavailableReason: 'the agent is not root' });
    expect((await patch(alice, { fingerprint: 'macos' })).json()).toMatchObject({ code: 'FINGERPRINT_UNAVAILABLE', reason: 'the agent is not root' });
    // Native (or the default) is always allowed.
    expect((await patch(alice, { fingerprint: 'native' })).statusCode).toBe(200);
    expect((await patch(alice, { fingerprint: null })).statusCode).toBe(200);
  });

  it('a chosen preset reaches the agent within 3 s and shows on the port; defaults apply in order; bad ids are refused', async () => {
    expect(await heartbeat({ supported: true })).toEqual({ ok: true });
    expect(await fingerprintOf(alice)).toMatchObject({ available: true, unavailableReason: null, active: 'native' });
    const before = states.at(-1)!;
    expect(presetSent(before)).toBeUndefined(); // native says nothing: absent

    const chosen = await patch(alice, { fingerprint: 'windows' });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().fingerprint).toMatchObject({ preset: 'windows', active: 'windows', source: 'port' });
    // A change applies to new connections within 3 s (issue 30, item 2): the agent gets a new state version by then.
    const pushed = await stateWith('windows', 3000);
    expect(pushed.version).not.toBe(before.version);

    // Back to the default: the tariff's, then the modem's over it.
    expect((await patch(alice, { fingerprint: null })).statusCode).toBe(200);
    await stateWith(undefined, 3000);
    const admin = await signedIn(t, 'admin');
    const tariff = await call(t, admin.cookie, 'PATCH', `/api/v1/admin/tariffs/${cat.dedicatedMonth.id}`, { fingerprintDefault: 'android' });
    expect(tariff.statusCode, tariff.body).toBe(200);
    expect(tariff.json().tariff.fingerprintDefault).toBe('android');
    expect(await fingerprintOf(alice)).toMatchObject({ preset: null, active: 'android', source: 'tariff' });
    await stateWith('android', 3000);
    const modemId = (await t.ctx.db.selectFrom('modems').select('id').where('imei', '=', port.IMEI).executeTakeFirstOrThrow()).id;
    const modem = await call(t, admin.cookie, 'PATCH', `/api/v1/admin/modems/${modemId}`, { fingerprintDefault: 'ios' });
    expect(modem.statusCode, modem.body).toBe(200);
    expect(modem.json().modem.fingerprintDefault).toBe('ios');
    expect(await fingerprintOf(alice)).toMatchObject({ active: 'ios', source: 'modem' });
    await stateWith('ios', 3000);
    // The port's own choice wins over both.
    expect((await patch(alice, { fingerprint: 'macos' })).json().fingerprint).toMatchObject({ active: 'macos', source: 'port' });
    await stateWith('macos', 3000);

    for (const bad of ['linux', 'Windows', 7, '']) {
      const res = await patch(alice, { fingerprint: bad });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().code).toBe('VALIDATION');
    }
  });

  it('a port whose preset failed on the host shows why, to its customer and in the console', async () => {
    expect(await heartbeat({ supported: true, failing: [{ portId: port._id, reason: 'the Apple layout needs NFQUEUE, which is not loaded' }] })).toEqual({ ok: true });
    expect((await fingerprintOf(alice)).failing).toBe('the Apple layout needs NFQUEUE, which is not loaded');
    const admin = await signedIn(t, 'admin');
    const modemId = (await t.ctx.db.selectFrom('modems').select('id').where('imei', '=', port.IMEI).executeTakeFirstOrThrow()).id;
    const shown = await call(t, admin.cookie, 'GET', `/api/v1/admin/modems?host_id=${hostId}&q=${port.IMEI}`);
    expect(shown.statusCode, shown.body).toBe(200);
    expect((shown.json().items as Array<{ id: string }>).find((m) => m.id === modemId)).toMatchObject({ fingerprintUnavailable: null, fingerprintFailing: [{ portId: port._id, reason: expect.stringMatching(/NFQUEUE/) }] });
    // The console's filter: only modems with a failing port (this one), whatever else the inventory holds.
    const failingIds = async () => {
      const res = await call(t, admin.cookie, 'GET', '/api/v1/admin/modems?status=presetFailing&pageSize=100');
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().items as Array<{ id: string }>).map((m) => m.id);
    };
    expect(await t.ctx.db.selectFrom('modems').select('id').where('id', '<>', modemId).executeTakeFirst()).toBeDefined();
    expect(await failingIds()).toEqual([modemId]);
    expect(await heartbeat({ supported: true })).toEqual({ ok: true });
    expect((await fingerprintOf(alice)).failing).toBeNull();
    expect(await failingIds()).toEqual([]);
  });

  it('the console shows why a host cannot apply presets, as its agent said, and nothing once it can', async () => {
    const admin = await signedIn(t, 'admin');
    const hostListed = async () => {
      const res = await call(t, admin.cookie, 'GET', '/api/v1/admin/hosts');
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().items as Array<{ id: string; fingerprintUnavailable: string | null }>).find((h) => h.id === hostId)!;
    };
    expect(await heartbeat({ supported: false, reason: 'The tc command is missing on this host (Debian: iproute2).' })).toEqual({ ok: true });
    expect((await hostListed()).fingerprintUnavailable).toBe('The tc command is missing on this host (Debian: iproute2).');
    expect(await heartbeat({ supported: true })).toEqual({ ok: true });
    expect((await hostListed()).fingerprintUnavailable).toBeNull();
  });

  it('another customer can neither change nor check the port', async () => {
    const theirs = await patch(bob, { fingerprint: 'windows' });
    expect(theirs.statusCode).toBe(404);
    const check = await t.app.inject({ method: 'POST', url: `/api/v1/modems/${port._id}/fingerprint-check`, ...json(bob.cookie) });
    expect(check.statusCode).toBe(404);
    expect((await fingerprintOf(alice)).preset).toBe('macos');
  });

  it('the check says when no echo is set up; a read-only key may not run it; it is rate-limited per customer', async () => {
    const check = (headers: Record<string, string>) => t.app.inject({ method: 'POST', url: `/api/v1/modems/${port._id}/fingerprint-check`, headers });
    const keyOf = async (scope: string) => (await t.app.inject({ method: 'POST', url: '/api/v1/api-keys', ...json(alice.cookie, { name: scope, scope }) })).json().key as string;
    const readOnly = await check({ authorization: `Bearer ${await keyOf('read')}` });
    expect(readOnly.statusCode).toBe(403);
    expect(readOnly.json().code).toBe('API_KEY_READ_ONLY');
    const manage = `Bearer ${await keyOf('manage')}`;
    const first = await check({ authorization: manage });
    expect(first.statusCode).toBe(409);
    expect(first.json().code).toBe('FINGERPRINT_ECHO_NOT_CONFIGURED');
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await check({ authorization: manage })).statusCode);
    expect(codes.at(-1)).toBe(429);
    // Another customer's limit is their own.
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/modems/${port._id}/fingerprint-check`, ...json(bob.cookie) })).statusCode).toBe(404);
  });
});
