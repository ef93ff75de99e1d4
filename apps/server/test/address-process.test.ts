import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SocksClient } from 'socks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { gatewayTrust } from '../src/modules/gateways/gateway-trust.js';
import { issueHostKey } from '../src/modules/hosts/index.js';
import { createCustomer, json, type Customer } from './fixtures.js';
import { seedCatalog } from '../src/db/seed/catalog.js';
import { spawnAgent } from './agent-fixtures.js';
import { describeOnPostgres, type TestApp } from './helpers.js';
import { openProcessTestWorld, type ProcessTestWorld } from './process-test-world.js';
import { getThroughProxy } from './proxy-get.js';
import { seedPortEnv } from './seed-ports.js';
import { freePort, until } from './wait.js';

// Issue 28, item 10 (decision 045): listening ports belong to the customer's port, so a move to another modem keeps
// the address the customer's clients use. Real agent processes (and a real gateway) serve the seeded simulated
// modems; customers reach the server's own /api/v1/ip through their ports, which answers the modem's address.
//  (a) a shared port moves to another shared modem of its host: its address stays, and its co-tenant's, untouched,
//      keeps working;
//  (b) a dedicated port moves to a modem of another host behind the same gateway: the customer's curl through the
//      same gateway host and port works after the move, now leaving from the other host's modem.

const root = new URL('../../../', import.meta.url).pathname;
const SECRET = 'address-process-test-secret-0123456789abcdef';
/** Loopback addresses of this file's own (no other test's agent or gateway listens there). */
const DIRECT_AGENT = '127.0.0.143';
const GATEWAY_HOST = '127.0.0.146';

interface Listed { _id: string; IMEI: string; host: string; http_port: number; socks_port: number; ext_ip: string; login: string; password: string }

let world: ProcessTestWorld;
let t: TestApp;
let serverUrl = '';
const children: ChildProcess[] = [];

async function listed(c: Customer): Promise<Listed[]> {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/modems', ...json(c.cookie) });
  return res.json() as Listed[];
}

/** What the server sees through the port's HTTP proxy at host:port (the modem's address), or the failure. */
async function seenViaHttp(host: string, port: Listed): Promise<string> {
  const r = await getThroughProxy({ host, port: port.http_port, login: port.login, password: port.password }, `${serverUrl}/api/v1/ip`)
    .catch((err: unknown) => ({ status: 0, body: String(err) }));
  return r.status === 200 ? r.body : `failed ${r.status}: ${r.body}`;
}

async function seenViaSocks(host: string, port: Listed): Promise<string> {
  const { socket } = await SocksClient.createConnection({
    proxy: { host, port: port.socks_port, type: 5, userId: port.login, password: port.password },
    command: 'connect', destination: { host: '127.0.0.1', port: Number(new URL(serverUrl).port) }, timeout: 10_000,
  });
  socket.write('GET /api/v1/ip HTTP/1.0\r\nHost: x\r\n\r\n');
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  await once(socket, 'close');
  return Buffer.concat(chunks).toString().split('\r\n\r\n')[1]?.trim() ?? '';
}

/** Waits until the port's HTTP proxy at host answers from `extIp`. */
const servedFrom = (host: string, port: Listed, extIp: string, what: string) =>
  until(async () => ((await seenViaHttp(host, port)) === extIp ? true : undefined), what);

async function buy(c: Customer, body: Record<string, unknown>): Promise<Listed> {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, body) });
  expect(res.statusCode, res.body).toBe(200);
  const id = (res.json().data.modems as Array<{ _id: string }>)[0]!._id;
  return (await listed(c)).find((p) => p._id === id)!;
}

async function replace(c: Customer, port: Listed): Promise<{ status: string; addressKept?: boolean }> {
  const res = await t.app.inject({ method: 'POST', url: `/api/v1/modems/${port._id}/replacement`, ...json(c.cookie) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const portModem = async (portId: string) => t.ctx.db.selectFrom('ports as p').innerJoin('modems as m', 'm.id', 'p.modem_id')
  .select(['m.id', 'm.imei', 'm.ext_ip', 'm.host_id', 'm.carrier_id', 'm.region_id', 'm.rotation_interval', 'm.country_id'])
  .where('p.id', '=', portId).executeTakeFirstOrThrow();

describeOnPostgres('a port keeps its address when it moves (processes: server, agents, gateway)', () => {
  beforeAll(async () => {
    const seedEnv = await seedPortEnv();
    world = await openProcessTestWorld({
      name: 'address',
      env: ({ dbUrl, dataDir }) => ({
        DATABASE_URL: dbUrl, DATA_DIR: dataDir, CAPTCHA_PROVIDER: 'off', PUBLIC_URL: 'http://localhost:3000',
        WEB_DIST: '/nonexistent', SESSION_SECRET: SECRET, MODEM_SIM_DELAY_MS: '30', ...seedEnv,
      }),
      poolSize: 6,
    });
    t = world.t;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    serverUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    await seedCatalog(t.ctx);
  }, 120_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await world?.cleanup();
  });

  it('(a) a shared port moves to another shared modem: its address stays, and its co-tenant\'s works on, untouched', async () => {
    const { db } = t.ctx;
    const us = await db.selectFrom('countries').select('id').where('code', '=', 'US').executeTakeFirstOrThrow();
    const tariff = await db.selectFrom('tariffs').select(['id', 'rotation_interval']).where('country_id', '=', us.id)
      .where('is_shared', '=', true).where('period', '=', 'month').executeTakeFirstOrThrow();
    // The first US carrier's shared modem, and a second one like it (a dedicated modem the operator made shared).
    const shared = await db.selectFrom('modems').selectAll().where('country_id', '=', us.id).where('is_shared', '=', true)
      .orderBy('imei').executeTakeFirstOrThrow();
    const second = await db.selectFrom('modems').select('id').where('carrier_id', '=', shared.carrier_id).where('is_shared', '=', false)
      .orderBy('imei', 'desc').executeTakeFirstOrThrow();
    await db.updateTable('modems').set({
      is_shared: true, capacity: 5, rotation_interval: shared.rotation_interval, region_id: shared.region_id,
    }).where('id', '=', second.id).execute();
    // Every other US shared modem retired: both customers land on one of these two.
    await db.updateTable('modems').set({ retired: true }).where('country_id', '=', us.id).where('is_shared', '=', true)
      .where('id', 'not in', [shared.id, second.id]).execute();

    const order = {
      tariff_id: tariff.id, country_id: us.id, carrier_id: shared.carrier_id, isShared: true,
      rotationInterval: tariff.rotation_interval, modemCount: 1,
    };
    const alice = await createCustomer(t, 1000);
    const bob = await createCustomer(t, 1000);
    const alicePort = await buy(alice, order);
    const bobPort = await buy(bob, order);
    const first = await portModem(alicePort._id);
    expect((await portModem(bobPort._id)).id).toBe(first.id);
    // Co-tenants, each with an address of their own.
    expect(alicePort.http_port).not.toBe(bobPort.http_port);

    const key = await issueHostKey(db, first.host_id);
    const agent = spawnAgent({ serverUrl, hostKey: key, dataDir: join(world.dataDir, 'agent-a'), listenHost: DIRECT_AGENT });
    children.push(agent);
    await servedFrom(DIRECT_AGENT, alicePort, first.ext_ip, 'alice\'s port to serve');
    await servedFrom(DIRECT_AGENT, bobPort, first.ext_ip, 'bob\'s port to serve');

    // Alice asks for another modem: the other shared one.
    expect(await replace(alice, alicePort)).toMatchObject({ status: 'moved', addressKept: true });
    const moved = await portModem(alicePort._id);
    expect(moved.id).not.toBe(first.id);
    const aliceAfter = (await listed(alice))[0]!;
    expect([aliceAfter.host, aliceAfter.http_port, aliceAfter.socks_port]).toEqual([alicePort.host, alicePort.http_port, alicePort.socks_port]);
    await servedFrom(DIRECT_AGENT, alicePort, moved.ext_ip, 'alice\'s same address to serve from the new modem');
    expect(await seenViaSocks(DIRECT_AGENT, alicePort)).toBe(moved.ext_ip);

    // Bob's address did not change, and it still works from the modem he is on.
    const bobAfter = (await listed(bob))[0]!;
    expect([bobAfter.host, bobAfter.http_port, bobAfter.socks_port]).toEqual([bobPort.host, bobPort.http_port, bobPort.socks_port]);
    expect(await seenViaHttp(DIRECT_AGENT, bobPort)).toBe(first.ext_ip);
    expect(await seenViaSocks(DIRECT_AGENT, bobPort)).toBe(first.ext_ip);
    agent.kill('SIGKILL');
    await once(agent, 'exit');
  }, 240_000);

  it('(b) a dedicated port moves to another host behind the same gateway: the same gateway host and port work after it', async () => {
    const { db } = t.ctx;
    const linkPort = await freePort();
    const gw = await db.insertInto('gateways').values({ name: 'edge-address', public_host: GATEWAY_HOST, link_url: `http://127.0.0.1:${linkPort}` })
      .returning('id').executeTakeFirstOrThrow();
    const de = await db.selectFrom('countries').select('id').where('code', '=', 'DE').executeTakeFirstOrThrow();
    const tariff = await db.selectFrom('tariffs').select('id').where('country_id', '=', de.id).where('is_shared', '=', false)
      .where('period', '=', 'month').executeTakeFirstOrThrow();
    const customer = await createCustomer(t, 1000);
    const port = await buy(customer, { tariff_id: tariff.id, country_id: de.id, isShared: false, rotationInterval: 0, modemCount: 1 });
    const from = await portModem(port._id);
    await db.updateTable('hosts').set({ gateway_id: gw.id }).where('id', '=', from.host_id).execute();
    // A second host behind the same gateway, with the one modem a replacement may take (the others of its kind retired).
    const host2 = await db.insertInto('hosts').values({ name: 'de2.proxy.cellport.local', address: '127.0.0.147', gateway_id: gw.id })
      .returning('id').executeTakeFirstOrThrow();
    const target = await db.selectFrom('modems').select(['id', 'ext_ip']).where('country_id', '=', de.id).where('is_shared', '=', false)
      .where('used_slots', '=', 0).where('id', '<>', from.id).orderBy('imei', 'desc').executeTakeFirstOrThrow();
    await db.updateTable('modems').set({ host_id: host2.id, carrier_id: from.carrier_id, region_id: from.region_id })
      .where('id', '=', target.id).execute();
    await db.updateTable('modems').set({ retired: true }).where('country_id', '=', de.id).where('is_shared', '=', false)
      .where('used_slots', '=', 0).where('id', '<>', target.id).execute();

    const listedBefore = (await listed(customer)).find((p) => p._id === port._id)!;
    expect(listedBefore.host).toBe(GATEWAY_HOST);
    const agents = [
      spawnAgent({ serverUrl, hostKey: await issueHostKey(db, from.host_id), dataDir: join(world.dataDir, 'agent-b1'), listenHost: '127.0.0.144' }),
      spawnAgent({ serverUrl, hostKey: await issueHostKey(db, host2.id), dataDir: join(world.dataDir, 'agent-b2'), listenHost: '127.0.0.145' }),
    ];
    children.push(...agents);
    const gateway = spawn(process.execPath, ['--import', 'tsx', 'apps/agent/src/gateway-main.ts'], {
      cwd: root, stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        PATH: process.env.PATH, GATEWAY_ID: gw.id, GATEWAY_TRUST_KEY: gatewayTrust(t.config.secret).publicKey,
        GATEWAY_LINK_HOST: '127.0.0.1', GATEWAY_LINK_PORT: String(linkPort), GATEWAY_LISTEN_HOST: GATEWAY_HOST,
        LOG_LEVEL: process.env.AGENT_TEST_LOG ?? 'warn',
      },
    });
    children.push(gateway);
    await servedFrom(GATEWAY_HOST, listedBefore, from.ext_ip, 'the port to serve through the gateway');
    // Both hosts linked (the second serves nothing yet): the move's tickets go over open links.
    await until(async () => {
      const links = await db.selectFrom('host_gateway_links').select('state').where('host_id', 'in', [from.host_id, host2.id]).execute();
      return links.length === 2 && links.every((l) => l.state === 'up') ? true : undefined;
    }, 'both hosts linked to the gateway');

    expect(await replace(customer, port)).toMatchObject({ status: 'moved', addressKept: true });
    expect((await portModem(port._id)).host_id).toBe(host2.id);
    const listedAfter = (await listed(customer)).find((p) => p._id === port._id)!;
    expect([listedAfter.host, listedAfter.http_port, listedAfter.socks_port])
      .toEqual([GATEWAY_HOST, listedBefore.http_port, listedBefore.socks_port]);
    // The customer's curl, unchanged, now leaves from the other host's modem.
    await servedFrom(GATEWAY_HOST, listedBefore, target.ext_ip, 'the same gateway address to serve from the other host');
    expect(await seenViaSocks(GATEWAY_HOST, listedBefore)).toBe(target.ext_ip);
    const told = await db.selectFrom('notifications').select('params').where('user_id', '=', customer.id)
      .where('text_key', '=', 'port_replaced').execute();
    expect(told).toEqual([expect.objectContaining({ params: expect.objectContaining({ cause: 'address_kept', host: GATEWAY_HOST }) })]);
  }, 240_000);
});
