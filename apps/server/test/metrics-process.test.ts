import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '../src/db/seed/catalog.js';
import { createCustomer } from './fixtures.js';
import { buyUsPorts, hostKeyOfModem, spawnAgent } from './agent-fixtures.js';
import { buildTestApp, type TestApp } from './helpers.js';
import { freePort, until } from './wait.js';

// Issue 17, item 2, "a test scrapes both processes": the server's /metrics and a stand-alone agent process's, started
// with AGENT_METRICS_PORT. The agent's ports listen on 127.0.0.19 (agent-process.test.ts's agent is on 127.0.0.1, the
// gateway test's on 127.0.0.7), so the two can run at once on the same seeded port numbers.

const HOST = '127.0.0.19';
const TOKEN = 'metrics-process-token-0123456789';

let t: TestApp;
let serverUrl = '';
let agent: ChildProcess | null = null;
let agentDir = '';
let agentMetrics = '';
let site: Server;
let sitePort = 0;
interface Proxy { httpPort: number; login: string; password: string; portId: string }
let proxy: Proxy;

async function scrape(url: string, token?: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, text: await res.text() };
}

/** One sample's value in Prometheus text, or undefined; every label given must match. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(match[3]);
  }
  return undefined;
}

/** One plain-forwarded GET through the port on a raw socket: the bytes each way are known exactly. */
async function throughProxy(): Promise<{ status: number; sent: number; received: number }> {
  const socket = connect(proxy.httpPort, HOST);
  socket.on('error', () => {});
  await once(socket, 'connect');
  const auth = Buffer.from(`${proxy.login}:${proxy.password}`).toString('base64');
  socket.write(`GET http://${HOST}:${sitePort}/ HTTP/1.1\r\nHost: ${HOST}:${sitePort}\r\nProxy-Authorization: Basic ${auth}\r\nConnection: close\r\n\r\n`);
  let head = '';
  socket.on('data', (c: Buffer) => { if (head.length < 64) head += c.toString('latin1'); });
  await once(socket, 'close');
  return { status: Number(head.slice(9, 12)), sent: socket.bytesWritten, received: socket.bytesRead };
}

describe('/metrics of the server and of a stand-alone agent process', () => {
  beforeAll(async () => {
    site = createServer((_req, res) => res.end('hello through the agent'));
    site.listen(0, HOST);
    await once(site, 'listening');
    sitePort = (site.address() as AddressInfo).port;

    t = await buildTestApp({ METRICS_TOKEN: TOKEN, MODEM_SIM_DELAY_MS: '30' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    serverUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    await seedCatalog(t.ctx);
    const customer = await createCustomer(t, 1000);
    const [p] = await buyUsPorts(t, customer, 1);
    proxy = { httpPort: p!.http_port, login: p!.login, password: p!.password, portId: p!._id };
    const hostKey = await hostKeyOfModem(t, p!.IMEI);

    agentDir = await mkdtemp(join(tmpdir(), 'cellport-agent-metrics-'));
    const metricsPort = await freePort(HOST);
    agentMetrics = `http://${HOST}:${metricsPort}`;
    agent = spawnAgent({
      serverUrl, hostKey, dataDir: agentDir, listenHost: HOST,
      env: { AGENT_METRICS_PORT: String(metricsPort), AGENT_METRICS_HOST: HOST, METRICS_TOKEN: TOKEN },
    });
    await until(async () => ((await throughProxy().catch(() => null))?.status === 200 ? true : undefined), 'the agent to serve the port');
  }, 120_000);

  afterAll(async () => {
    agent?.kill('SIGKILL');
    await t?.close();
    site?.close();
    if (agentDir) await rm(agentDir, { recursive: true, force: true });
  });

  it('both answer 401 without the token and their series with it; a request through the agent moves its counters', async () => {
    expect((await scrape(serverUrl)).status).toBe(401);
    expect((await scrape(agentMetrics)).status).toBe(401);
    expect((await scrape(agentMetrics, `${TOKEN}x`)).status).toBe(401);

    // The server sees the agent's connection; its modems by health and ports by state are there.
    const server = await until(async () => {
      const { status, text } = await scrape(serverUrl, TOKEN);
      return status === 200 && sample(text, 'cellport_realtime_connections', { server: 'agents' }) === 1 ? text : undefined;
    }, 'the server to count the agent');
    expect(sample(server, 'cellport_ports', { state: 'active' })).toBeGreaterThanOrEqual(1);
    expect(server).toContain('cellport_modems{');

    const before = await scrape(agentMetrics, TOKEN);
    expect(before.status).toBe(200);
    expect(sample(before.text, 'cellport_agent_server_connected')).toBe(1);
    expect(sample(before.text, 'cellport_agent_modems', { state: 'online' })).toBeGreaterThanOrEqual(1);
    expect(sample(before.text, 'cellport_agent_desired_state_info')).toBe(1);
    const http = sample(before.text, 'cellport_agent_connections_total', { kind: 'http' })!;
    const bytesIn = sample(before.text, 'cellport_agent_bytes_total', { port_id: proxy.portId, direction: 'in' })!;
    const bytesOut = sample(before.text, 'cellport_agent_bytes_total', { port_id: proxy.portId, direction: 'out' })!;
    expect(bytesIn).toBeGreaterThan(0); // the request that found the port serving

    const done = await throughProxy();
    expect(done.status).toBe(200);
    const after = await until(async () => {
      const { text } = await scrape(agentMetrics, TOKEN);
      return sample(text, 'cellport_agent_bytes_total', { port_id: proxy.portId, direction: 'in' }) === bytesIn + done.received ? text : undefined;
    }, 'the bytes to be counted');
    expect(sample(after, 'cellport_agent_bytes_total', { port_id: proxy.portId, direction: 'out' })).toBe(bytesOut + done.sent);
    expect(sample(after, 'cellport_agent_connections_total', { kind: 'http' })).toBe(http + 1);
    expect(sample(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  }, 120_000);
});
