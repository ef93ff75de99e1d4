import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SocksClient } from 'socks';
import { afterAll, beforeAll, expect, inject, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { seedCatalog } from '../src/db/seed/catalog.js';
import { issueHostKey } from '../src/modules/hosts/index.js';
import { createCustomer, json } from './fixtures.js';
import { describeOnPostgres, type TestApp } from './helpers.js';
import { seedPortEnv } from './seed-ports.js';
import { getThroughProxy } from './proxy-get.js';
import { copyTemplateDatabase } from './template-db.js';
import { buyUsPorts, spawnAgent } from './agent-fixtures.js';
import { freePort } from './wait.js';

// Issue 18, gateway mode end to end: the server, a stand-alone agent for a host pinned to a gateway, and the gateway
// process, each on its own. The agent opens no port of its own; the customer's port list names the gateway's public
// host; HTTP and SOCKS5 through the gateway leave from the modem; the link's state reaches the database; the gateway
// is killed and started again, and service is back (the time it took is printed, the issue's target is 10 s).

const root = new URL('../../../', import.meta.url).pathname;
const SECRET = 'gateway-process-test-secret-0123456789abcdef';
const GATEWAY_HOST = '127.0.0.3';
/** Where the agent would listen if it did: an address no other test's agent uses, so "it listens on none" is its own. */
const AGENT_HOST = '127.0.0.7';

let t: TestApp;
let dropDatabase: (() => Promise<void>) | undefined;
let agent: ChildProcess | null = null;
let gateway: ChildProcess | null = null;
let dir = '';
let gatewayEnv: NodeJS.ProcessEnv = {};
/** The public half of the server's gateway trust key (the console shows it). */
let trustKey = '';

const until = <T>(probe: () => Promise<T | undefined>, what: string, timeout = 30_000) =>
  vi.waitFor(async () => {
    const value = await probe();
    if (value === undefined) throw new Error(`timed out waiting for ${what}`);
    return value;
  }, { timeout, interval: 100 });

function startGateway(): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'apps/agent/src/gateway-main.ts'], {
    cwd: root, env: gatewayEnv, stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/** A GET of the server's own /api/v1/ip through an HTTP proxy port: the status and the address the server saw. */
function ipThroughHttp(host: string, port: number, login: string, password: string): Promise<{ status: number; body: string }> {
  return getThroughProxy({ host, port, login, password }, `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/ip`);
}

describeOnPostgres('gateway mode: server, agent and gateway processes', () => {
  beforeAll(async () => {
    const template = inject('dbTemplate');
    if (template.kind !== 'postgres') throw new Error('needs PostgreSQL');
    const copy = await copyTemplateDatabase(template);
    dropDatabase = copy.drop;
    const config = loadConfig({
      NODE_ENV: 'test', CAPTCHA_PROVIDER: 'off', PUBLIC_URL: 'http://localhost:3000', DATA_DIR: '/tmp/cellport-test',
      WEB_DIST: '/nonexistent', SESSION_SECRET: SECRET, MODEM_SIM_DELAY_MS: '30', ...await seedPortEnv(),
    });
    const database = await openDatabase({ databaseUrl: copy.url, dataDir: '', poolSize: 5 });
    const { app, ctx, services } = await buildApp({ config, database, logger: false });
    trustKey = services.gatewayTrust.publicKey;
    await app.listen({ port: 0, host: '127.0.0.1' });
    t = { app, ctx, config, close: async () => { await app.close(); await database.close(); } };
    await seedCatalog(ctx);
    dir = await mkdtemp(join(tmpdir(), 'cellport-gateway-'));
  }, 120_000);

  afterAll(async () => {
    agent?.kill('SIGKILL');
    gateway?.kill('SIGKILL');
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
    await dropDatabase?.();
  });

  it('serves a port through the gateway over HTTP and SOCKS5, and comes back after the gateway restarts', async () => {
    const { db } = t.ctx;
    const linkPort = await freePort();
    const gw = await db.insertInto('gateways').values({ name: 'edge-1', public_host: GATEWAY_HOST, link_url: `http://127.0.0.1:${linkPort}` })
      .returning('id').executeTakeFirstOrThrow();
    const host = await db.selectFrom('hosts').select('id').where('name', '=', 'us1.proxy.cellport.local').executeTakeFirstOrThrow();
    await db.updateTable('hosts').set({ gateway_id: gw.id }).where('id', '=', host.id).execute();

    // A customer buys a US port; the list names the gateway as the host to connect to.
    const customer = await createCustomer(t, 1000);
    await buyUsPorts(t, customer, 1);
    const listed = await t.app.inject({ method: 'GET', url: '/api/v1/modems', ...json(customer.cookie) });
    const port = (listed.json() as Array<{ host: string; http_port: number; socks_port: number; ext_ip: string; login: string; password: string }>)[0]!;
    expect(port.host).toBe(GATEWAY_HOST);

    const key = await issueHostKey(db, host.id);
    const serverUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    agent = spawnAgent({ serverUrl, hostKey: key, dataDir: join(dir, 'agent'), listenHost: AGENT_HOST });
    gatewayEnv = {
      PATH: process.env.PATH, GATEWAY_ID: gw.id, GATEWAY_TRUST_KEY: trustKey, GATEWAY_LINK_HOST: '127.0.0.1',
      GATEWAY_LINK_PORT: String(linkPort), GATEWAY_LISTEN_HOST: GATEWAY_HOST, LOG_LEVEL: process.env.AGENT_TEST_LOG ?? 'warn',
    };
    gateway = startGateway();

    // Through the gateway, the server sees the modem's address.
    const seen = () => ipThroughHttp(GATEWAY_HOST, port.http_port, port.login, port.password);
    expect(await until(async () => {
      const r = await seen().catch(() => null);
      return r?.status === 200 ? r.body : undefined;
    }, 'the port to work through the gateway')).toBe(port.ext_ip);
    const { socket } = await SocksClient.createConnection({
      proxy: { host: GATEWAY_HOST, port: port.socks_port, type: 5, userId: port.login, password: port.password },
      command: 'connect', destination: { host: '127.0.0.1', port: (t.app.server.address() as AddressInfo).port }, timeout: 10_000,
    });
    socket.write(`GET /api/v1/ip HTTP/1.0\r\nHost: x\r\n\r\n`);
    const viaSocks = await new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.once('close', () => resolve(Buffer.concat(chunks).toString()));
    });
    expect(viaSocks.split('\r\n\r\n')[1]?.trim()).toBe(port.ext_ip);

    // The agent listens on none of the host's ports itself; it reports its link, which the server records.
    await expect(ipThroughHttp(AGENT_HOST, port.http_port, port.login, port.password)).rejects.toThrow(/ECONNREFUSED/);
    await until(async () => {
      const link = await db.selectFrom('host_gateway_links').select(['state', 'epoch']).where('host_id', '=', host.id).executeTakeFirst();
      return link?.state === 'up' && link.epoch >= 1n ? link : undefined;
    }, 'the link state to be recorded');

    // The gateway dies and comes back: the agent relinks, and the port works again.
    gateway.kill('SIGKILL');
    await once(gateway, 'exit');
    await until(async () => {
      const link = await db.selectFrom('host_gateway_links').select('state').where('host_id', '=', host.id).executeTakeFirst();
      return link?.state === 'connecting' ? true : undefined;
    }, 'the agent to report the link down');
    const restarted = Date.now();
    gateway = startGateway();
    await until(async () => {
      const r = await seen().catch(() => null);
      return r?.status === 200 ? r : undefined;
    }, 'the port to work again after the gateway restarted');
    console.log(`gateway-process: service back ${Date.now() - restarted} ms after the gateway was started again`);
  });
});
