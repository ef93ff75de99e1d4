import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { HostModems } from '../../modems/host-modems.js';
import { parseModemsFile, type ModemsFile } from '../../modems/modems-file.js';
import { ModemProxy } from '../../proxy/modem-proxy.js';
import { createTargetPolicy } from '../../proxy/target-policy.js';
import { TrafficMeter } from '../../proxy/traffic-meter.js';
import { FakeHilink } from '../drivers/hilink/fake-hilink.js';
import { echoIp } from '../drivers/ip-echo.js';
import { LoopbackPool, SimulatedModemDriver } from '../drivers/simulated.js';
import { createLogger } from '../log.js';
import { modemRouting } from './modem-route.js';
import { applyModemRouting } from './policy-routing.js';

// Test support for policy-routing.netns.test.ts: the agent's side of the network-namespace test, run inside the
// "agent" namespace (`ip netns exec <ns> node --import tsx netns-test-agent.ts`) so that the real agent code (the
// policy routing, HostModems with the HiLink driver, a ModemProxy per modem) sets up and uses that namespace's
// routing. Each HiLink dongle is a FakeHilink whose reconnect rewrites its modem namespace's SNAT (the new public IP)
// and may give the agent's interface a new address, as a carrier does. Commands come as JSON lines on stdin
// ({ id, op, args }), answers go as JSON lines on stdout ({ id, ok, result | error }); logs go to stderr.

const exec = promisify(execFile);

interface ModemSpec {
  name: string;
  imei: string;
  /** The agent's interface to the modem (its egress binding) and the dongle's address on it. */
  egress: string;
  gateway: string;
  /** The public IP the modem has, and the ones its reconnects give (its namespace's SNAT is rewritten to each). */
  publicIp: string;
  nextIps: string[];
  /** The modem's namespace (its NAT: table ip nat, chain post, out through `wan`). */
  namespace: string;
  /** On a reconnect the agent's interface gets this address instead of `from` (as a wwan0 does). */
  readdress?: { from: string; to: string };
}

const log = createLogger('warn', { component: 'netns-test-agent' }, (line) => process.stderr.write(line));
const PORT = { id: 'p1', login: 'netns', password: 'netns-secret', whitelist: [], state: 'active' as const, expiresAt: new Date(Date.now() + 3_600_000).toISOString() };

/** The modem namespace's SNAT now gives `ip`: what a carrier's new public IP is here. */
export async function setSnat(namespace: string, ip: string): Promise<void> {
  await exec('ip', ['netns', 'exec', namespace, 'nft', 'flush', 'chain', 'ip', 'nat', 'post']);
  await exec('ip', ['netns', 'exec', namespace, 'nft', 'add', 'rule', 'ip', 'nat', 'post', 'oifname', 'wan', 'snat', 'to', ip]);
}

let state: { hostModems: HostModems; fakes: FakeHilink[]; proxies: Map<string, ModemProxy>; file: ModemsFile; dataDir: string; firstTable: number } | null = null;

async function start(args: { echoUrl: string; firstTable: number; modems: ModemSpec[] }) {
  const fakes = args.modems.map((spec) => new FakeHilink({
    imei: spec.imei, publicIp: spec.publicIp, nextIps: [...spec.nextIps], switchMs: 20,
    onConnect: async (ip) => {
      if (spec.readdress) {
        await exec('ip', ['addr', 'del', spec.readdress.from, 'dev', spec.egress]);
        await exec('ip', ['addr', 'add', spec.readdress.to, 'dev', spec.egress]);
      }
      await setSnat(spec.namespace, ip);
    },
  }));
  await Promise.all(fakes.map((f) => f.start()));
  const file = parseModemsFile(JSON.stringify({
    modems: args.modems.map((spec, i) => ({ driver: 'hilink', name: spec.name, management: fakes[i]!.url, egress: spec.egress, gateway: spec.gateway })),
  }), 'modems.json');
  const dataDir = await mkdtemp(join(tmpdir(), 'cellport-netns-'));
  const hostModems = new HostModems({
    file, dataDir, echoUrls: [args.echoUrl], rotateAttempts: 1, simulated: new SimulatedModemDriver(new LoopbackPool(), 0), log,
    echoTimeoutMs: 10_000, echoDeadlineMs: 30_000, probeTimeoutMs: 30_000, hilink: { pollMs: 50 }, policyRouting: { firstTable: args.firstTable },
  });
  await hostModems.discover();
  const proxies = new Map<string, ModemProxy>();
  for (const info of hostModems.inventory()) {
    // As the host agent serves a modem: the driver's egress binding is the proxy's source address.
    const proxy = new ModemProxy({
      imei: info.imei, listenHost: '127.0.0.1', httpPort: 0, socksPort: 0, egress: hostModems.egress({ imei: info.imei, extIp: info.extIp ?? '' }),
      policy: createTargetPolicy({}), meter: new TrafficMeter(), log,
    });
    await proxy.start();
    proxy.setPorts([PORT]);
    proxies.set(info.imei, proxy);
  }
  state = { hostModems, fakes, proxies, file, dataDir, firstTable: args.firstTable };
  return hostModems.inventory().map((m) => ({ imei: m.imei, extIp: m.extIp ?? null, egress: proxies.get(m.imei)!.egress }));
}

function must() {
  if (!state) throw new Error('start first');
  return state;
}

/** A plain HTTP request for `url` through the modem's HTTP proxy port, as a customer makes it. */
function viaProxy(args: { imei: string; url: string }): Promise<{ status: number; body: string }> {
  const proxy = must().proxies.get(args.imei);
  if (!proxy) throw new Error(`no proxy for ${args.imei}`);
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1', port: proxy.listeningPorts!.http, method: 'GET', path: args.url, agent: false, timeout: 20_000,
      headers: { host: new URL(args.url).host, 'proxy-authorization': `Basic ${Buffer.from(`${PORT.login}:${PORT.password}`).toString('base64')}` },
    }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { body += chunk; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: body.trim() }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('no answer through the proxy within 20 s')));
    req.on('error', reject);
    req.end();
  });
}

/** A rotation as the host agent runs it: new connections wait, the driver reconnects, the proxy takes the new egress. */
async function rotate(args: { imei: string }) {
  const { hostModems, proxies } = must();
  const proxy = proxies.get(args.imei)!;
  proxy.beginRotation();
  try {
    const { extIp } = await hostModems.rotate({ imei: args.imei, extIp: hostModems.currentIp(args.imei) ?? '' }, () => undefined);
    proxy.setEgress(hostModems.egress({ imei: args.imei, extIp }));
    return { extIp, egress: proxy.egress };
  } finally {
    proxy.endRotation();
  }
}

/** Each modem's policy routing applied once more; what it had to run (nothing, when all is in place). */
async function reapply() {
  const { file, firstTable } = must();
  return Promise.all(file.modems.map(async (entry, i) => {
    const want = modemRouting(entry, i, firstTable);
    return want ? (await applyModemRouting(want)).map((a) => `ip ${a.join(' ')}`) : [];
  }));
}

async function stop() {
  if (!state) return;
  const { hostModems, fakes, proxies, dataDir } = state;
  state = null;
  hostModems.stop();
  await Promise.all([...proxies.values()].map((p) => p.close()));
  await Promise.all(fakes.map((f) => f.stop()));
  await rm(dataDir, { recursive: true, force: true });
}

const ops: Record<string, (args: never) => Promise<unknown>> = {
  start,
  viaProxy,
  rotate,
  reapply,
  stop,
  /** One IP-echo request from a source address, outside the agent's own code paths (the leak check). */
  direct: (args: { url: string; source: string }) => echoIp(args.url, args.source, 10_000),
  /** The agent's periodic look at its modems (it re-applies the policy routing). */
  discover: async () => { await must().hostModems.discover(); return must().hostModems.inventory().map((m) => ({ imei: m.imei, extIp: m.extIp ?? null })); },
};

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const { id, op, args } = JSON.parse(line) as { id: number; op: string; args: unknown };
  const fn = ops[op];
  void (fn ? fn(args as never) : Promise.reject(new Error(`unknown op ${op}`))).then(
    (result) => process.stdout.write(`${JSON.stringify({ id, ok: true, result })}\n`),
    (err: unknown) => process.stdout.write(`${JSON.stringify({ id, ok: false, error: (err as Error).message })}\n`),
  );
});
lines.on('close', () => void stop().finally(() => process.exit(0)));
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
