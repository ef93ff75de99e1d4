import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { sql } from 'kysely';
import { HOST_PROTOCOL, type DesiredState, type PortAccess } from '@cellport/shared/schemas/host-protocol';
import { quotaMonth } from '@cellport/shared/schemas/port-limits';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { loadDesiredStates } from '../hosts/host-state.js';
import { HostStateRepository } from '../hosts/index.js';
import { createCustomer, json, seedTestCatalog } from '../../../test/fixtures.js';
import { issueHostKey } from '../hosts/index.js';

// Issue 18, item 3: a port's monthly quota. Traffic batches are counted into the port's month; crossing 80 % and
// 100 % notifies its customer once each, and 100 % makes the desired state say blocked (or throttled) until the next
// month, whose first batches start from zero again.

let t: TestApp;
let socket: Socket;
let hostId: string;
let cat: Awaited<ReturnType<typeof seedTestCatalog>>;
const states: DesiredState[] = [];
const GB = 1_000_000_000;

beforeAll(async () => {
  t = await buildTestApp({ MODEM_CONTROL: 'agent' });
  cat = await seedTestCatalog(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  hostId = (await t.ctx.db.selectFrom('modems').select('host_id').where('country_id', '=', cat.usId).executeTakeFirstOrThrow()).host_id;
  const key = await issueHostKey(t.ctx.db, hostId);
  socket = connect(`http://127.0.0.1:${address.port}`, { path: HOST_PROTOCOL.path, transports: ['websocket'], auth: { key }, reconnection: false, forceNew: true });
  socket.on('state', (s: DesiredState) => states.push(s));
  await new Promise<void>((resolve, reject) => { socket.once('connect', () => resolve()); socket.once('connect_error', reject); });
});
afterAll(async () => {
  socket?.close();
  await t?.close();
});

const accessOf = (s: DesiredState | undefined, portId: string): PortAccess | undefined => s?.modems.flatMap((m) => m.ports).find((p) => p.id === portId);
const latest = (portId: string) => accessOf(states.at(-1), portId);
/** Sends one batch of `bytes` (split between the two directions) for the port, in the interval in progress. */
async function send(portId: string, bytes: number): Promise<void> {
  const intervalStart = new Date(Math.floor(Date.now() / 300_000) * 300_000).toISOString();
  const down = Math.floor(bytes / 2);
  const ack = await socket.timeout(15_000).emitWithAck('traffic', {
    batchId: randomUUID(), samples: [{ portId, intervalStart, bytesIn: String(down), bytesOut: String(bytes - down) }],
  });
  expect(ack).toMatchObject({ duplicate: false, accepted: 1 });
}
const told = async (userId: string) => (await t.ctx.db.selectFrom('notifications').select(['text_key', 'text'])
  .where('user_id', '=', userId).where('text_key', 'like', 'quota_%').orderBy('created_at').execute());

describe('monthly traffic quota', () => {
  it('notifies once at 80 % and once at 100 %, then the port is blocked until next month, and the count starts again then', async () => {
    await t.ctx.db.updateTable('tariffs').set({ monthly_quota_gb: 1, over_quota: 'block', bandwidth_mbps: 10, max_connections: 5 })
      .where('id', '=', cat.dedicatedMonth.id).execute();
    const ann = await createCustomer(t, 1000);
    const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(ann.cookie, {
      tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
    }) });
    expect(bought.statusCode, bought.body).toBe(200);
    const portId = bought.json().data.modems[0]._id as string;
    await expect.poll(() => latest(portId)?.limits, { timeout: 15_000 })
      .toEqual({ bandwidthBytesPerSecond: 1_250_000, maxConnections: 5, quota: { state: 'ok' } });

    await send(portId, 0.7 * GB);
    expect(await told(ann.id)).toEqual([]);
    await send(portId, 0.15 * GB); // 85 %
    await send(portId, 0.1 * GB); // 95 %: nothing new
    expect((await told(ann.id)).map((n) => n.text_key)).toEqual(['quota_warning']);
    expect((await told(ann.id))[0]!.text).toMatch(/used 80 % of its 1 GB/);
    expect(latest(portId)?.limits?.quota).toEqual({ state: 'ok' });

    await send(portId, 0.06 * GB); // 101 %
    const until = quotaMonth(new Date()).next.toISOString();
    await expect.poll(() => latest(portId)?.limits?.quota, { timeout: 15_000 }).toEqual({ state: 'blocked', until });
    await send(portId, 0.2 * GB);
    await send(portId, 0.2 * GB);
    const notes = await told(ann.id);
    expect(notes.map((n) => n.text_key)).toEqual(['quota_warning', 'quota_reached']);
    expect(notes[1]!.text).toMatch(/used all 1 GB .*accepts no connections until 00:00 UTC on the 1st/);
    const month = await t.ctx.db.selectFrom('port_traffic_months').selectAll().where('port_id', '=', portId).executeTakeFirstOrThrow();
    expect(BigInt(month.bytes)).toBe(BigInt(1.41 * GB));
    expect(month.month.toISOString().slice(0, 10)).toBe(quotaMonth(new Date()).start.toISOString().slice(0, 10));

    // The operator switches the tariff to throttling: the blocked port is throttled instead, at once.
    await t.ctx.db.updateTable('tariffs').set({ over_quota: 'throttle', over_quota_mbps: 2 }).where('id', '=', cat.dedicatedMonth.id).execute();
    await expect.poll(() => latest(portId)?.limits?.quota, { timeout: 15_000 }).toEqual({ state: 'throttled', bytesPerSecond: 250_000, until });

    // Next month: this month's bytes become last month's; the port is under its quota again and is told again.
    await sql`update port_traffic_months set month = (month - interval '1 month')::date where port_id = ${portId}`.execute(t.ctx.db);
    const desired = (await loadDesiredStates(new HostStateRepository(t.ctx.db), [hostId])).get(hostId)!.state;
    expect(accessOf(desired, portId)?.limits?.quota).toEqual({ state: 'ok' });
    await send(portId, 0.9 * GB);
    expect((await told(ann.id)).map((n) => n.text_key)).toEqual(['quota_warning', 'quota_reached', 'quota_warning']);
  });

  it('a tariff without a quota counts the month and never notifies; a jump past 100 % tells only that', async () => {
    await t.ctx.db.updateTable('tariffs').set({ monthly_quota_gb: null, bandwidth_mbps: null, max_connections: 200, over_quota: 'block', over_quota_mbps: null })
      .where('id', '=', cat.dedicatedMonth.id).execute();
    const bo = await createCustomer(t, 1000);
    const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(bo.cookie, {
      tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
    }) });
    const portId = bought.json().data.modems[0]._id as string;
    await expect.poll(() => latest(portId)?.limits, { timeout: 15_000 })
      .toEqual({ bandwidthBytesPerSecond: null, maxConnections: 200, quota: { state: 'ok' } });
    await send(portId, 5 * GB);
    expect(await told(bo.id)).toEqual([]);
    const usage = async (cookie: string) => (await t.app.inject({ method: 'GET', url: '/api/v1/traffic/quota', ...json(cookie) })).json().data;
    const { start, next } = quotaMonth(new Date());
    expect(await usage(bo.cookie)).toEqual([{
      port_id: portId, modem_name: expect.any(String), monthStart: start.toISOString(), resetsAt: next.toISOString(),
      bytes: String(5 * GB), quotaBytes: null, state: 'ok',
      limits: { bandwidthMbps: null, maxConnections: 200, monthlyQuotaGb: null, overQuota: 'block', overQuotaMbps: null },
    }]);
    const stranger = await createCustomer(t, 0);
    expect(await usage(stranger.cookie)).toEqual([]);

    await t.ctx.db.updateTable('tariffs').set({ monthly_quota_gb: 2, over_quota: 'block' }).where('id', '=', cat.dedicatedMonth.id).execute();
    await expect.poll(() => latest(portId)?.limits?.quota?.state, { timeout: 15_000 }).toBe('blocked');
    await send(portId, 1);
    expect((await told(bo.id)).map((n) => n.text_key)).toEqual(['quota_reached']);
    expect(await usage(bo.cookie)).toMatchObject([{ bytes: String(5 * GB + 1), quotaBytes: String(2 * GB), state: 'blocked' }]);
  });
});
