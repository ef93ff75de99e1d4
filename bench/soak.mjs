// The soak bench (issue 31, item 5): churn for a long time against every long-lived process of the product, and watch
// whether they grow. Not in the full `npm run bench` list (it runs for an hour); its quick mode runs in CI.
//
//   node bench/soak.mjs                 (60 minutes; needs PostgreSQL as bench/buying.mjs does)
//   node bench/soak.mjs --minutes 15    (shorter)
//   BENCH_QUICK=1 node bench/soak.mjs   (quick mode: a few seconds, a sample every second; asserts no figure, fails when
//                                        an activity got no good answer or a wrong one)
//
// Processes, each its own, as in production:
//   server   the app from source (through tsx) on a fresh PostgreSQL database (dropped at the end), with its job runner
//            and webhook delivery worker on, the simulated modem control, CUSTOMERS customers with real sessions, a few
//            ports each, and a webhook endpoint each (every event type) pointing at this process;
//   agent    one ModemProxy (the agent's proxy core) listening itself and linked to
//   gateway  the gateway (bench/lib/gateway-pair.mjs, as bench/gateway.mjs runs them);
//   origin   the targets (bench/lib/proxy-origin.mjs);
//   and short-lived load generators (bench/lib/proxy-load.mjs, bench/lib/udp-load.mjs), not sampled.
// Activities, side by side until the end, each bounded in rate:
//   storms     connection storms: new tunnels (HTTP CONNECT and SOCKS5) for a few seconds through the agent directly and
//              through the gateway, then STORM_HELD tunnels opened at once and dropped together (a disconnection storm);
//   udp        SOCKS5 UDP associations (one per run, datagrams echoed), direct and through the gateway;
//   purchases  POST /api/v1/payment/balance/buy, one port, PURCHASES_PER_S;
//   polls      GET /api/v1/notifications with If-None-Match, as the dashboard does every 3 s, POLLS_PER_S;
//   rotations  POST /api/v1/modems/:id/rotate, round robin over the customers' ports (200, or 429 within a port's minute);
//   webhooks   what purchases and rotations cause: the deliveries are counted here as they arrive (answered 200).
// Sampled every SAMPLE_S (60 s; 1 s in quick mode) for server, agent, gateway and origin: RSS and open files
// (/proc/<pid>/status, /proc/<pid>/fd), sockets among them, and the V8 heap after a full collection (the Node processes
// run with --expose-gc and answer "stats" on stdin). Printed: every sample, then each figure's growth from the
// MARK_MIN mark (5 minutes, or a third of a shorter run) to the end. The target (issue 31): RSS and open files within
// 10 % of the 5-minute mark after 60 minutes.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { addDedicatedStock, databaseUrl, fundedCustomer, usDayPurchase } from './lib/bench-database.mjs';
import { startGatewayPair } from './lib/gateway-pair.mjs';
import { firstLine, runToEnd, spawnWithLimit } from './lib/proxy-procs.mjs';
import { QUICK, fault, knob } from './lib/quick.mjs';

const minutesArg = process.argv.indexOf('--minutes');
const MINUTES = minutesArg > 0 ? Number(process.argv[minutesArg + 1]) : knob('BENCH_MINUTES', 60, 0.1);
const SAMPLE_S = knob('BENCH_SAMPLE_S', 60, 1);
const MARK_MIN = Math.min(5, MINUTES / 3);
const CUSTOMERS = knob('BENCH_CUSTOMERS', 20, 3);
const PORTS_EACH = 3;
const PURCHASES_PER_S = knob('BENCH_PURCHASES_PER_S', 5, 5);
const POLLS_PER_S = knob('BENCH_POLLS_PER_S', 20, 10);
const STORM_SECONDS = knob('BENCH_STORM_S', 3, 1);
const STORM_CONCURRENCY = 16;
const STORM_HELD = knob('BENCH_STORM_HELD', 500, 50);
const UDP_SECONDS = 1;
/** The proxy paths churned: 'direct' (the agent's own ports), 'gateway' (through the gateway), or both. */
const PATHS = (process.env.BENCH_PATHS ?? 'direct,gateway').split(',');
/** The activities run (to find which one a leak or a crash comes with); every one by default. */
const ONLY = (process.env.BENCH_ONLY ?? 'storms,udp,purchases,polls,rotations').split(',');
/** A pause between two rounds of the proxy activities, so the soak churns without saturating the two cores. */
const ROUND_PAUSE_MS = QUICK ? 0 : 5000;
/** Dedicated stock: more than every purchase of the run. */
const STOCK = Math.ceil(MINUTES * 60 * PURCHASES_PER_S * 1.2) + CUSTOMERS * PORTS_EACH + 100;
const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LIB = fileURLToPath(new URL('./lib/', import.meta.url));
const HOST = '127.0.0.1';
const GATEWAY_HOST = '127.0.0.5';
const EGRESS = '127.0.9.9';
const USER = 'soak';
const PASS = 'soak-secret-1';

if (process.argv[2] === '--serve') await serve(process.argv[3]);
else await soak();

// ---- child: the server ------------------------------------------------------------------------------------------

/** The app on a fresh database; prints one JSON line (port, customers) when it listens; "stats" on stdin: memory. */
async function serve(webhookUrl) {
  const pg = (await import('pg')).default;
  const { loadConfig } = await import('../apps/server/src/config.ts');
  const { openDatabase } = await import('../apps/server/src/db/database.ts');
  const { migrateToLatest } = await import('../apps/server/src/db/migrate.ts');
  const { buildApp } = await import('../apps/server/src/app.ts');
  const { seedCatalog } = await import('../apps/server/src/db/seed/catalog.ts');
  const { LedgerRepository, LedgerService } = await import('../apps/server/src/modules/ledger/index.ts');

  const dbName = `cellport_soak_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const dataDir = mkdtempSync(join(os.tmpdir(), 'cellport-soak-'));
  // The timers, as main.ts starts them: the job runner, and with it the webhook deliveries (background.ts).
  const config = loadConfig({
    NODE_ENV: 'development', PORT: '0', CAPTCHA_PROVIDER: 'off', PUBLIC_URL: 'http://127.0.0.1', DATA_DIR: dataDir,
    RATE_LIMIT_PAYMENTS_PER_MINUTE: '1000000', LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent', MODEM_CONTROL: 'simulated',
    JOBS_POLL_MS: '1000', WEBHOOKS_ALLOW_LOOPBACK: 'true',
  });
  const database = await openDatabase({ databaseUrl: databaseUrl(BASE_URL, dbName), dataDir: '' });
  await migrateToLatest(database.db);
  const { app, ctx } = await buildApp({ config, database, logger: false, timers: true });
  await seedCatalog(ctx);
  await addDedicatedStock(database.db, STOCK);
  const body = await usDayPurchase(database.db);
  const ledger = new LedgerService(new LedgerRepository(database.db));
  const customers = [];
  for (let i = 0; i < CUSTOMERS; i++) {
    const cookie = await fundedCustomer({ db: database.db, ledger, sessions: ctx.sessions }, 'soak', i, HOST);
    const headers = { cookie, origin: 'http://127.0.0.1' };
    const hook = await app.inject({ method: 'POST', url: '/api/v1/webhooks', headers, payload: { url: webhookUrl, eventTypes: ['port.bought', 'port.rotated', 'port.rotation_failed', 'payment.completed'] } });
    if (hook.statusCode !== 200) throw new Error(`webhook endpoint: ${hook.statusCode} ${hook.body}`);
    const bought = await app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', headers, payload: { ...body, modemCount: PORTS_EACH } });
    if (bought.statusCode !== 200) throw new Error(`setup purchase: ${bought.statusCode} ${bought.body}`);
    customers.push({ cookie, ports: bought.json().data.modems.map((m) => m._id) });
  }
  await app.listen({ port: 0, host: HOST });
  process.stdout.write(`${JSON.stringify({ ready: true, pid: process.pid, port: app.server.address().port, customers, body })}\n`);
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    if (line.trim() !== 'stats') return;
    globalThis.gc?.();
    process.stdout.write(`${JSON.stringify({ memory: process.memoryUsage() })}\n`);
  });
  lines.on('close', async () => {
    await app.close();
    await database.close();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}

// ---- parent: the churn and the samples --------------------------------------------------------------------------

async function soak() {
  const children = new Set();
  const track = (c) => children.add(c);
  const dir = mkdtempSync(join(os.tmpdir(), 'cellport-soak-'));
  const cleanup = () => {
    for (const child of children) { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('SIGINT', () => { cleanup(); process.exit(130); });
  const counts = {
    tunnels: 0, tunnelErrors: 0, held: 0, heldErrors: 0, udpEchoed: 0, udpAssociations: 0, purchases: 0, purchaseErrors: 0,
    polls: 0, pollErrors: 0, rotations: 0, rotationsRefused: 0, rotationErrors: 0, deliveries: 0, loadFailures: 0,
  };
  const hooks = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => { counts.deliveries++; res.writeHead(200, { 'content-length': 0 }); res.end(); });
  });
  await new Promise((r) => hooks.listen(0, HOST, r));
  const udpEcho = dgram.createSocket('udp4');
  udpEcho.on('message', (msg, rinfo) => udpEcho.send(msg, rinfo.port, rinfo.address));
  await new Promise((r) => udpEcho.bind(0, HOST, r));
  try {
    console.log(`$ node bench/soak.mjs --minutes ${MINUTES}${QUICK ? ' (BENCH_QUICK=1)' : ''}`);
    console.log(`${new Date().toISOString()} · ${os.cpus().length} × ${os.cpus()[0]?.model.trim()} · Node ${process.version} · load average ${loadavg()}`);
    const origin = spawnWithLimit(process.execPath, [join(LIB, 'proxy-origin.mjs'), String(1 << 20)], { cwd: ROOT });
    track(origin);
    origin.stderr.pipe(process.stderr);
    const targets = await firstLine(origin, 'origin');
    const pair = await startGatewayPair({
      dir, nodeArgs: process.env.BENCH_GC === '0' ? [] : ['--expose-gc'], track, maxConnections: STORM_HELD * 2 + 1000, host: HOST, gatewayHost: GATEWAY_HOST, egress: EGRESS, user: USER, pass: PASS,
    });
    const server = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--serve', `http://${HOST}:${hooks.address().port}/hook`], {
      stdio: ['pipe', 'pipe', 'inherit'], cwd: ROOT, detached: true,
    });
    track(server);
    const setup = await firstLine(server, 'server');
    const procs = { server, agent: pair.agent, gateway: pair.gateway, origin };
    const started = Date.now();
    let until = started + MINUTES * 60_000;
    let stopping = false;
    // A process that dies ends the run: what waits on it would wait for ever.
    for (const [name, child] of Object.entries(procs)) {
      child.once('exit', (code, signal) => {
        if (stopping) return;
        fault(`${name} exited during the soak (code ${code}, signal ${signal})`);
        until = Date.now();
      });
    }
    const stats = Object.fromEntries(Object.entries(procs).filter(([name]) => name !== 'origin').map(([name, child]) => [name, statsReader(child)]));

    const allVias = {
      'direct CONNECT': { kind: 'connect', host: HOST, port: pair.ports.direct.http, user: USER, pass: PASS },
      'direct SOCKS5': { kind: 'socks', host: HOST, port: pair.ports.direct.socks, user: USER, pass: PASS },
      'gateway CONNECT': { kind: 'connect', host: GATEWAY_HOST, port: pair.ports.gateway.http, user: USER, pass: PASS },
      'gateway SOCKS5': { kind: 'socks', host: GATEWAY_HOST, port: pair.ports.gateway.socks, user: USER, pass: PASS },
    };
    const vias = Object.fromEntries(Object.entries(allVias).filter(([name]) => PATHS.includes(name.split(' ')[0])));
    const running = () => Date.now() < until;
    // A load generator that fails (its proxy died, say) is counted and the soak goes on to its end, so it still stops
    // its processes in order and drops its database.
    const run = (args) => runToEnd(process.execPath, args, { cwd: ROOT, children }).catch((err) => {
      counts.loadFailures++;
      console.error(String(err).slice(0, 300));
      return null;
    });
    const lastLine = (out) => (out ? JSON.parse(out.trim().split('\n').at(-1)) : null);
    const api = apiClient(setup.port);

    const storms = async () => {
      while (running()) {
        for (const via of Object.values(vias)) {
          const res = lastLine(await run([join(LIB, 'proxy-load.mjs'), JSON.stringify({
            mode: 'tunnels', via, target: { host: HOST, port: targets.echo }, seconds: STORM_SECONDS, concurrency: STORM_CONCURRENCY,
          })]));
          if (!res) continue;
          counts.tunnels += res.ok;
          counts.tunnelErrors += res.errors;
          if (res.errors) console.error(`storm through ${via.kind} ${via.host}:${via.port}: ${JSON.stringify(res.errorKinds)}`);
        }
        const held = await holdAndDrop(Object.values(vias), { host: HOST, port: targets.hold }, STORM_HELD, track, children);
        counts.held += held.opened;
        counts.heldErrors += held.errors;
        await pause(ROUND_PAUSE_MS, () => until);
      }
    };
    const udp = async () => {
      while (running()) {
        for (const { host, port } of Object.values(vias).filter((v) => v.kind === 'socks')) {
          const res = lastLine(await run([join(LIB, 'udp-load.mjs'), JSON.stringify({
            via: { host, port, user: USER, pass: PASS }, target: { host: HOST, port: udpEcho.address().port }, seconds: UDP_SECONDS, window: 16, size: 512,
          })]));
          if (!res) continue;
          counts.udpAssociations++;
          counts.udpEchoed += res.echoed;
        }
        await pause(ROUND_PAUSE_MS, () => until);
      }
    };
    const buyBody = JSON.stringify(setup.body);
    const purchases = () => paced(PURCHASES_PER_S, running, async (k) => {
      const { status } = await api('POST', '/api/v1/payment/balance/buy', setup.customers[k % CUSTOMERS].cookie, buyBody);
      if (status === 200) counts.purchases++; else counts.purchaseErrors++;
    });
    const etags = new Map();
    const polls = () => paced(POLLS_PER_S, running, async (k) => {
      const c = k % CUSTOMERS;
      const { status, etag } = await api('GET', '/api/v1/notifications', setup.customers[c].cookie, null, etags.get(c));
      if (etag) etags.set(c, etag);
      if (status === 200 || status === 304) counts.polls++; else counts.pollErrors++;
    });
    const ports = setup.customers.flatMap((c) => c.ports.map((id) => ({ id, cookie: c.cookie })));
    // Each port at most once a minute (the server's rule), so the round robin covers every port within a minute.
    const rotations = () => paced(Math.max(1, ports.length / 60), running, async (k) => {
      const p = ports[k % ports.length];
      const { status } = await api('POST', `/api/v1/modems/${p.id}/rotate`, p.cookie, '{}');
      if (status === 200) counts.rotations++;
      else if (status === 429) counts.rotationsRefused++;
      else counts.rotationErrors++;
    });

    const samples = [];
    const sample = async () => {
      const t = (Date.now() - started) / 60_000;
      const row = { minute: t, load: os.loadavg()[0], procs: {} };
      for (const [name, child] of Object.entries(procs)) {
        const answer = stats[name] ? await stats[name]() : null;
        const heap = answer ? answer.memory.heapUsed / 2 ** 20 : null;
        row.procs[name] = { rss: rssMbOf(child.pid), heap, fds: fdsOf(child.pid).all, sockets: fdsOf(child.pid).sockets };
      }
      samples.push(row);
      console.log(`  ${t.toFixed(1).padStart(5)} min  load ${row.load.toFixed(2)}  ${Object.entries(row.procs).map(([n, p]) =>
        `${n} ${p.rss.toFixed(0)} MB${p.heap === null ? '' : ` heap ${p.heap.toFixed(1)}`} fd ${p.fds} sock ${p.sockets}`).join(' · ')}`);
      console.log(`             ${JSON.stringify(counts)}`);
    };
    const sampler = async () => {
      await sample();
      while (running()) {
        await pause(SAMPLE_S * 1000, () => until);
        await sample();
      }
    };
    console.log(`\nchurn for ${MINUTES} min, a sample every ${SAMPLE_S} s (RSS MB, heap MB after a full collection, open files, sockets):`);
    const activities = { storms, udp, purchases, polls, rotations };
    await Promise.all([...Object.entries(activities).filter(([name]) => ONLY.includes(name)).map(([, go]) => go()), sampler()]);
    // Deliveries of the last purchases follow on the job runner's next ticks; the table counts what arrived so far.
    report(samples);
    console.log(`\nload average at end: ${loadavg()}`);
    const ran = (name) => ONLY.includes(name);
    if (ran('storms') && (!(counts.tunnels > 0) || counts.tunnelErrors)) fault(`storms: ${counts.tunnels} tunnels, ${counts.tunnelErrors} errors`);
    if (ran('storms') && (!(counts.held > 0) || counts.heldErrors)) fault(`held tunnels: ${counts.held} opened, ${counts.heldErrors} errors`);
    if (ran('udp') && !(counts.udpEchoed > 0)) fault('udp: no datagram echoed');
    if (ran('purchases') && (!(counts.purchases > 0) || counts.purchaseErrors)) fault(`purchases: ${counts.purchases} bought, ${counts.purchaseErrors} refused`);
    if (ran('polls') && (!(counts.polls > 0) || counts.pollErrors)) fault(`polls: ${counts.polls} answered, ${counts.pollErrors} wrong`);
    if (ran('rotations') && (!(counts.rotations > 0) || counts.rotationErrors)) fault(`rotations: ${counts.rotations} done, ${counts.rotationErrors} failed`);
    if (counts.loadFailures) fault(`${counts.loadFailures} load generator runs failed`);
    if ((ran('purchases') || ran('rotations')) && !(counts.deliveries > 0)) fault('webhooks: no delivery arrived');
    stopping = true;
    for (const child of [server, pair.agent, pair.gateway, origin]) {
      const exited = new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', r)));
      child.stdin.end();
      await exited;
    }
  } finally {
    hooks.close();
    udpEcho.close();
    cleanup();
  }
}

/** Each figure of each process at the mark and at the end, and its growth. */
function report(samples) {
  const mark = samples.find((s) => s.minute >= MARK_MIN) ?? samples[0];
  const end = samples.at(-1);
  console.log(`\ngrowth from the ${mark.minute.toFixed(1)}-minute mark to the end (${end.minute.toFixed(1)} min); target after 60 min: RSS and open files within 10 %`);
  console.log('| process | RSS MB | heap MB | open files | sockets |');
  console.log('|---|---|---|---|---|');
  const fmt = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(x < 100 ? 1 : 0));
  // A process that exited has no figures at the end (null): its row says so rather than the report failing.
  const growth = (a, b) => (a === null || a === undefined ? '' : b === null || b === undefined || b < 0 ? `${fmt(a)} → exited`
    : `${fmt(a)} → ${fmt(b)} (${a ? `${((b / a - 1) * 100).toFixed(1)} %` : '—'})`);
  for (const name of Object.keys(end.procs)) {
    const a = mark.procs[name];
    const b = end.procs[name];
    console.log(`| ${name} | ${growth(a.rss, b.rss)} | ${growth(a.heap, b.heap)} | ${growth(a.fds, b.fds)} | ${growth(a.sockets, b.sockets)} |`);
  }
}

/** A function that asks `child` for its stats (a "stats" line on stdin) and resolves to its answer line (null once it exited). */
function statsReader(child) {
  const waiting = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.includes('"memory"')) waiting.shift()?.(JSON.parse(line));
  });
  child.once('exit', () => { for (const resolve of waiting.splice(0)) resolve(null); });
  return () => new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(null);
    waiting.push(resolve);
    child.stdin.write('stats\n');
  });
}

/** Opens `count` tunnels at once over `vias` (proxy-load.mjs idle mode), then drops them all together. */
async function holdAndDrop(vias, target, count, track, children) {
  const child = spawnWithLimit(process.execPath, [join(LIB, 'proxy-load.mjs'), JSON.stringify({ mode: 'idle', vias, target, count, concurrency: 200 })], { cwd: ROOT });
  track(child);
  child.stderr.pipe(process.stderr);
  const lines = createInterface({ input: child.stdout });
  // null once it exited without a line (it failed; its stderr says why).
  const next = () => new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(null);
    lines.once('line', (l) => resolve(JSON.parse(l)));
    child.once('exit', () => resolve(null));
  });
  const opened = await next();
  child.stdin.end();
  if (opened) await next();
  await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', r)));
  children.delete(child);
  return opened ? { opened: opened.opened, errors: opened.errors } : { opened: 0, errors: count };
}

/** Calls work(k) `perSecond` times a second (k = 0, 1, …) while running(); at most 8 in flight. */
async function paced(perSecond, running, work) {
  const inFlight = new Set();
  for (let k = 0; running(); k++) {
    const p = work(k).finally(() => inFlight.delete(p));
    inFlight.add(p);
    if (inFlight.size >= 8) await Promise.race(inFlight);
    await new Promise((r) => setTimeout(r, 1000 / perSecond));
  }
  await Promise.all(inFlight);
}

function apiClient(port) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const origin = `http://${HOST}:${port}`;
  return (method, path, cookie, body, etag) => new Promise((resolve) => {
    const req = http.request({
      host: HOST, port, method, path, agent,
      headers: { cookie, origin, ...(etag ? { 'if-none-match': etag } : {}), ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}) },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, etag: res.headers.etag }));
    });
    req.on('error', () => resolve({ status: 0 }));
    req.end(body ?? undefined);
  });
}

/** Open files of a process, and how many of them are sockets. */
function fdsOf(pid) {
  let all = 0;
  let sockets = 0;
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      all++;
      try { if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) sockets++; } catch { /* closed meanwhile */ }
    }
  } catch { return { all: -1, sockets: -1 }; }
  return { all, sockets };
}

function rssMbOf(pid) {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch { return -1; }
}

/** Waits `ms`, but not past `until()`: the run ends on time. */
function pause(ms, until) {
  return new Promise((r) => setTimeout(r, Math.max(0, Math.min(ms, until() - Date.now()))));
}
function loadavg() { return os.loadavg().map((x) => x.toFixed(2)).join(', '); }
