import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { HOST_PROTOCOL, type DesiredState, type Heartbeat } from '@cellport/shared/schemas/host-protocol';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { signedIn } from '../../../test/console-helpers.js';
import { createCustomer, json, seedTestCatalog } from '../../../test/fixtures.js';
import { issueHostKey } from './host-keys.repository.js';
import { portName } from '../notifications/index.js';

// Issue 15, item 5: the agent's health checks reach the server in the heartbeat. Each modem's health and reason are
// recorded when they change; a modem that goes offline, and one that comes back, is told to the customers with
// active ports on it (in their language) and to the operators (in theirs), once each.

let t: TestApp;
let url: string;
let socket: Socket;
let state: DesiredState;
let cat: Awaited<ReturnType<typeof seedTestCatalog>>;

beforeAll(async () => {
  t = await buildTestApp({ MODEM_CONTROL: 'agent' });
  cat = await seedTestCatalog(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  url = `http://127.0.0.1:${address.port}`;
  const hostId = (await t.ctx.db.selectFrom('modems').select('host_id').where('country_id', '=', cat.usId).executeTakeFirstOrThrow()).host_id;
  const key = await issueHostKey(t.ctx.db, hostId);
  socket = connect(url, { path: HOST_PROTOCOL.path, transports: ['websocket'], auth: { key }, reconnection: false, forceNew: true });
  // The first state arrives on connect; the test's purchase below is on the same host.
  state = await new Promise<DesiredState>((resolve, reject) => {
    socket.once('state', resolve);
    socket.once('connect_error', reject);
  });
});
afterAll(async () => {
  socket?.close();
  await t.close();
});

describe('modem health from the heartbeat', () => {
  it('records health and reason; offline tells the customer and the operators once, each in their language; degraded tells nobody; back online tells both', async () => {
    const erin = await createCustomer(t, 1000, 'ru');
    const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(erin.cookie, {
      tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
    }) });
    expect(bought.statusCode, bought.body).toBe(200);
    const portId = (bought.json().data.modems[0] as { _id: string })._id;
    const port = await t.ctx.db.selectFrom('ports').innerJoin('modems', 'modems.id', 'ports.modem_id').innerJoin('hosts', 'hosts.id', 'modems.host_id')
      .select(['ports.name', 'ports.default_number', 'modems.id as modemId', 'modems.imei', 'hosts.name as host']).where('ports.id', '=', portId).executeTakeFirstOrThrow();
    // Erin reads the port's default name in Russian: "Прокси 1", not the stored "Proxy 1" (issue 27, item 12).
    const erinsName = portName(port, 'ru');
    const operator = await signedIn(t, 'admin');
    await t.ctx.db.updateTable('users').set({ language: 'cn' }).where('id', '=', operator.id).execute();

    const hb = (modem: Partial<Heartbeat['modems'][number]>): Heartbeat => ({
      agentVersion: '0.3.0-test', uptimeSeconds: 60, stateVersion: state.version,
      modems: state.modems.map((m) => ({ imei: m.imei, state: 'online', extIp: m.extIp, connections: 0, ...(m.imei === port.imei ? modem : {}) })),
    });
    const send = async (heartbeat: Heartbeat) => expect(await socket.timeout(10_000).emitWithAck('heartbeat', heartbeat)).toEqual({ ok: true });
    const texts = async (cookie: string) => (await t.app.inject({ method: 'GET', url: '/api/v1/notifications', ...json(cookie) })).json()
      .data.filter((n: { type: string }) => n.type === 'other').map((n: { text: string }) => n.text);
    const row = () => t.ctx.db.selectFrom('modems').select(['online', 'health', 'health_reason', 'health_changed_at', 'problem'])
      .where('id', '=', port.modemId).executeTakeFirstOrThrow();

    await send(hb({ health: { state: 'online' } }));
    expect(await row()).toMatchObject({ online: true, health: 'online', health_reason: null });

    // Degraded: the API hangs while traffic flows. Recorded for the console; the modem serves, nobody is told.
    const hung = 'management API does not answer: HiLink http://192.168.8.1 monitoring/status: no answer within 10000 ms';
    await send(hb({ problem: hung, health: { state: 'degraded', reason: hung } }));
    const degraded = await row();
    expect(degraded).toMatchObject({ online: true, health: 'degraded', health_reason: hung });
    expect(degraded.health_changed_at).not.toBeNull();
    expect(await texts(erin.cookie)).toEqual([]);
    expect(await texts(operator.cookie)).toEqual([]);

    // Offline: no request gets through. The customer hears of it in Russian, the operator in Chinese, with the reason.
    const dead = 'no request gets through the modem: http://echo/api/v1/ip did not answer within 10000 ms; the reconnect failed: HiLink timeout';
    const offline = hb({ state: 'offline', problem: dead, health: { state: 'offline', reason: dead } });
    await send(offline);
    expect(await row()).toMatchObject({ online: false, health: 'offline', health_reason: dead });
    const down = `${erinsName} недоступен: модем перестал отвечать. Мы сообщим, когда он снова заработает.`;
    const opDown = `主机 ${port.host} 上的调制解调器已离线：${port.imei} (${dead})`;
    expect(await texts(erin.cookie)).toEqual([down]);
    expect(await texts(operator.cookie)).toEqual([opDown]);

    // Still offline at the next checks, with another reason from the next recovery step: said once.
    await send(offline);
    await send(hb({ state: 'offline', problem: `${dead}; the reboot failed`, health: { state: 'offline', reason: `${dead}; the reboot failed` } }));
    expect(await row()).toMatchObject({ health: 'offline', health_reason: `${dead}; the reboot failed` });
    expect(await texts(erin.cookie)).toEqual([down]);
    expect(await texts(operator.cookie)).toEqual([opDown]);

    // Back: both are told, once.
    await send(hb({ health: { state: 'online' } }));
    await send(hb({ health: { state: 'online' } }));
    expect(await row()).toMatchObject({ online: true, health: 'online', health_reason: null, problem: null });
    expect(await texts(erin.cookie)).toEqual([`${erinsName} снова работает.`, down]);
    expect(await texts(operator.cookie)).toEqual([`主机 ${port.host} 上的调制解调器已恢复在线：${port.imei}`, opDown]);
  });

  it('an agent that reports no health (older ones, the demo) has it from the run state and the problem', async () => {
    const modem = state.modems[0]!;
    const base = { agentVersion: '0.1.0', uptimeSeconds: 5, stateVersion: state.version };
    const others = state.modems.slice(1).map((m) => ({ imei: m.imei, state: 'online' as const, extIp: m.extIp, connections: 0 }));
    await socket.timeout(10_000).emitWithAck('heartbeat', { ...base, modems: [{ imei: modem.imei, state: 'offline', extIp: modem.extIp, connections: 0, problem: 'port 21000 is in use' }, ...others] });
    const row = () => t.ctx.db.selectFrom('modems').select(['health', 'health_reason']).where('imei', '=', modem.imei).executeTakeFirstOrThrow();
    expect(await row()).toEqual({ health: 'offline', health_reason: 'port 21000 is in use' });
    await socket.timeout(10_000).emitWithAck('heartbeat', { ...base, modems: [{ imei: modem.imei, state: 'online', extIp: modem.extIp, connections: 0 }, ...others] });
    expect(await row()).toEqual({ health: 'online', health_reason: null });
  });
});
