// Buying from the balance and listing ports, with 50 concurrent customers on PostgreSQL, next to a bare Fastify
// route measured in the same run (same machine, same load generator) so the figures compare like with like.
//
//   node bench/buying.mjs            (needs PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL,
//                                     else postgres://postgres@127.0.0.1:5432/postgres)
//   BENCH_SECONDS=10 BENCH_LIST_PORTS=20 BENCH_INSTANCES=2 node bench/buying.mjs   (2 server processes, one database)
//   BENCH_ONLY=buy BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' node bench/buying.mjs   (profile one route)
//   BENCH_ONLY=buy BENCH_RATES= node bench/buying.mjs   (the closed loop only: an A/B of the server's CPU per purchase)
//   BENCH_QUICK=1 node bench/buying.mjs   (quick mode: 5 customers, 2 ports each, 1 s per scenario, one open-loop rate;
//                                          fails when an answer is not the expected one)
//
// The server runs in a child process (from source through tsx) so the load generator does not share its event loop.
// It gets a fresh database (dropped at the end) with the demo catalog, 20,000 extra dedicated modems, 50 buyers
// holding $1,000,000 each and 50 listers who bought BENCH_LIST_PORTS ports each (20 by default) before the clock
// starts, all with real sessions. Two measurements per route:
//   1. Closed loop (saturation): each of the 50 customers sends its next request as soon as its previous answer
//      arrived, so 50 requests are always in flight. Printed: requests/s, p50, p99, and the ratio to the bare route.
//      And the CPU each request cost, in ms: the server processes, PostgreSQL (every backend, when it runs on this
//      machine) and this load generator, which share the 2 cores (pgbench's own client costs far less: see
//      bench/purchase-ceiling.mjs).
//   2. Open loop (latency under load): the 50 customers send requests at a fixed total rate, spread evenly, at
//      several fractions of the closed-loop throughput; latency counts from when a request was due.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { addDedicatedStock, databaseUrl, fundedCustomer, usDayPurchase } from './lib/bench-database.mjs';
import { closedLoop, openLoop } from './lib/load.mjs';
import { QUICK, expectAnswers, knob } from './lib/quick.mjs';
import { cpuSeconds, localPostgresPid } from './lib/proxy-procs.mjs';

const CUSTOMERS = knob('BENCH_CUSTOMERS', 50, 5);
const SECONDS = knob('BENCH_SECONDS', 8, 1);
const WARM_UP_SECONDS = QUICK ? 0.2 : 1;
const LIST_PORTS = knob('BENCH_LIST_PORTS', 20, 2);
/** Dedicated stock: more than every purchase of the run (closed and open loop). */
const STOCK = knob('BENCH_STOCK', 20_000, 1000);
/** Server processes on the same database (the design allows several instances); customers are spread over them. */
const INSTANCES = knob('BENCH_INSTANCES', 1, 1);
/** Open-loop rates, as fractions of the route's closed-loop throughput (BENCH_RATES=0.5,0.9; empty: closed loop only). */
const RATE_FRACTIONS = process.env.BENCH_RATES !== undefined
  ? process.env.BENCH_RATES.split(',').filter(Boolean).map(Number)
  : QUICK ? [0.5] : [0.25, 0.5, 0.75, 0.9];
const P99_TARGET_MS = 50;
/** Connections per server process: the product's default (10) unless BENCH_POOL says otherwise. */
const POOL = process.env.BENCH_POOL ? Number(process.env.BENCH_POOL) : undefined;
/** 'buy' or 'list': measure only that route (and the bare one), e.g. to profile it alone. */
const ONLY = process.env.BENCH_ONLY;
const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

if (process.argv[2] === '--serve') await serve();
else if (process.argv[2] === '--join') await join(process.argv[3]);
else await measure();

// ---- child: the server ------------------------------------------------------------------------------------------

async function serve() {
  const pg = (await import('pg')).default;
  const { loadConfig } = await import('../apps/server/src/config.ts');
  const { openDatabase } = await import('../apps/server/src/db/database.ts');
  const { migrateToLatest } = await import('../apps/server/src/db/migrate.ts');
  const { buildApp } = await import('../apps/server/src/app.ts');
  const { seedCatalog } = await import('../apps/server/src/db/seed/catalog.ts');
  const { LedgerRepository, LedgerService } = await import('../apps/server/src/modules/ledger/index.ts');
  const Fastify = (await import('fastify')).default;

  const dbName = `cellport_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const url = databaseUrl(BASE_URL, dbName);

  const config = loadConfig({
    NODE_ENV: 'development', PORT: '0', CAPTCHA_PROVIDER: 'off', PUBLIC_URL: 'http://127.0.0.1', DATA_DIR: '/tmp/cellport-bench',
    RATE_LIMIT_PAYMENTS_PER_MINUTE: '1000000', LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent',
  });
  const database = await openDatabase({ databaseUrl: url, dataDir: '', poolSize: POOL });
  await migrateToLatest(database.db);
  const { app, ctx } = await buildApp({ config, database, logger: false });
  await seedCatalog(ctx);
  // Enough dedicated stock in the US for every purchase of the run (closed and open loop).
  await addDedicatedStock(database.db, STOCK);
  const ledger = new LedgerService(new LedgerRepository(database.db));
  const newCustomer = (label, i) => fundedCustomer({ db: database.db, ledger, sessions: ctx.sessions }, label, i);
  const body = await usDayPurchase(database.db);
  const cookies = [];
  for (let i = 0; i < CUSTOMERS; i++) cookies.push(await newCustomer('buyer', i));
  // Listers hold a fixed number of ports, bought through the real route, so the listing does not depend on how
  // fast the buying scenario ran.
  const listCookies = [];
  for (let i = 0; i < CUSTOMERS; i++) {
    const cookie = await newCustomer('lister', i);
    const res = await app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', headers: { cookie, origin: 'http://127.0.0.1' }, payload: { ...body, modemCount: LIST_PORTS } });
    if (res.statusCode !== 200) throw new Error(`setup purchase failed: ${res.statusCode} ${res.body}`);
    listCookies.push(cookie);
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({ ok: true }));
  await bare.listen({ port: 0, host: '127.0.0.1' });

  process.stdout.write(`${JSON.stringify({
    port: app.server.address().port, barePort: bare.server.address().port, cookies, listCookies, body, databaseUrl: url,
  })}\n`);
  process.stdin.resume();
  process.stdin.on('end', async () => {
    await bare.close();
    await app.close();
    await database.close();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
    process.exit(0);
  });
}

/** Another server process on the database the first one prepared. */
async function join(databaseUrl) {
  const { loadConfig } = await import('../apps/server/src/config.ts');
  const { openDatabase } = await import('../apps/server/src/db/database.ts');
  const { buildApp } = await import('../apps/server/src/app.ts');
  const config = loadConfig({
    NODE_ENV: 'development', PORT: '0', CAPTCHA_PROVIDER: 'off', PUBLIC_URL: 'http://127.0.0.1', DATA_DIR: '/tmp/cellport-bench',
    RATE_LIMIT_PAYMENTS_PER_MINUTE: '1000000', LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent',
  });
  const database = await openDatabase({ databaseUrl, dataDir: '', poolSize: POOL });
  const { app } = await buildApp({ config, database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ port: app.server.address().port })}\n`);
  process.stdin.resume();
  process.stdin.on('end', async () => {
    await app.close();
    await database.close();
    process.exit(0);
  });
}

// ---- parent: the load generator ---------------------------------------------------------------------------------

async function measure() {
  // BENCH_NODE_ARGS: extra flags for the server process, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof'.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const start = (args) => {
    const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', new URL(import.meta.url).pathname, ...args], {
      stdio: ['pipe', 'pipe', 'inherit'], cwd: new URL('..', import.meta.url).pathname,
    });
    const ready = new Promise((resolve, reject) => {
      let buf = '';
      child.stdout.on('data', (d) => {
        buf += d;
        const nl = buf.indexOf('\n');
        if (nl >= 0) resolve(JSON.parse(buf.slice(0, nl)));
      });
      child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    return { child, ready };
  };
  const first = start(['--serve']);
  const child = first.child;
  const setup = await first.ready;
  const others = Array.from({ length: INSTANCES - 1 }, () => start(['--join', setup.databaseUrl]));
  const ports = [setup.port, ...(await Promise.all(others.map((o) => o.ready))).map((o) => o.port)];
  const agent = new http.Agent({ keepAlive: true, maxSockets: CUSTOMERS * 2 });
  const buyBody = JSON.stringify(setup.body);

  const scenarios = [
    { name: 'bare Fastify GET /bare', ports: [setup.barePort], method: 'GET', path: '/bare', cookies: setup.cookies },
    { only: 'buy', name: 'POST /api/v1/payment/balance/buy', ports, method: 'POST', path: '/api/v1/payment/balance/buy', body: buyBody, cookies: setup.cookies },
    { only: 'list', name: `GET /api/v1/modems (${LIST_PORTS} ports)`, ports, method: 'GET', path: '/api/v1/modems', cookies: setup.listCookies },
  ].filter((s) => !ONLY || !s.only || s.only === ONLY);
  // Customer i always talks to the same instance, as behind a load balancer with keep-alive.
  const send = (s) => (customer) => request(agent, s, s.ports[customer % s.ports.length], s.cookies[customer % s.cookies.length])
    .then((status) => status === 200);
  // Warm-up: JIT, connection pools, prepared statements.
  for (const s of scenarios) await closedLoop(WARM_UP_SECONDS, CUSTOMERS, send(s));
  const postgres = localPostgresPid();
  const servers = [child, ...others.map((o) => o.child)];
  const cpu = () => {
    const own = process.cpuUsage();
    return {
      server: servers.reduce((sum, c) => sum + cpuSeconds(c.pid), 0), postgres: postgres ? cpuSeconds(postgres, true) : NaN,
      load: (own.user + own.system) / 1e6,
    };
  };
  const results = [];
  for (const s of scenarios) {
    const before = cpu();
    const r = await closedLoop(SECONDS, CUSTOMERS, send(s));
    const after = cpu();
    expectAnswers(`closed loop ${s.name}`, r);
    const perRequest = (k) => ((after[k] - before[k]) * 1000) / r.count;
    results.push({ ...s, ...r, cpu: { server: perRequest('server'), postgres: perRequest('postgres'), load: perRequest('load') } });
  }
  const bare = results[0];

  console.log(`\n${CUSTOMERS} concurrent customers, ${SECONDS} s per scenario, PostgreSQL, ${INSTANCES} server process${INSTANCES > 1 ? 'es' : ''} (bare: 1), ${new Date().toISOString().slice(0, 10)}`);
  console.log(`closed loop (${CUSTOMERS} always in flight)`.padEnd(45) + 'req/s    p50 ms   p99 ms   errors   vs bare   CPU ms per request: server, PostgreSQL, load generator');
  const ms = (v) => (Number.isFinite(v) ? v.toFixed(2) : '-').padStart(6);
  for (const r of results) {
    console.log(`${r.name.padEnd(42)} ${r.rps.toFixed(0).padStart(6)}  ${r.p50.toFixed(1).padStart(7)}  ${r.p99.toFixed(1).padStart(7)}  ${String(r.errors).padStart(7)}   ${`${(r.rps / bare.rps * 100).toFixed(1)} %`.padStart(7)}   ${ms(r.cpu.server)} ${ms(r.cpu.postgres)} ${ms(r.cpu.load)}`);
  }

  console.log(`open loop (${CUSTOMERS} customers at a total rate, latency from due time)`);
  console.log('route                                       rate req/s   sent req/s   p50 ms   p99 ms   errors');
  for (const r of results.slice(1)) {
    let best = 0;
    for (const fraction of RATE_FRACTIONS) {
      const rate = Math.max(1, Math.round(r.rps * fraction));
      const due = Array.from({ length: Math.round(rate * SECONDS) }, (_, k) => ({ at: (k * 1000) / rate, customer: k % CUSTOMERS }));
      const o = await openLoop(due, (d) => send(r)(d.customer));
      expectAnswers(`open loop ${r.name} at ${rate} req/s`, o);
      if (o.p99 < P99_TARGET_MS && o.errors === 0) best = Math.max(best, rate);
      console.log(`${r.name.padEnd(42)} ${String(rate).padStart(10)}   ${o.rps.toFixed(0).padStart(10)}  ${o.p50.toFixed(1).padStart(7)}  ${o.p99.toFixed(1).padStart(7)}  ${String(o.errors).padStart(7)}`);
    }
    console.log(`${r.name}: closed-loop p99 ${r.p99.toFixed(1)} ms ${r.p99 < P99_TARGET_MS ? '<' : '≥'} ${P99_TARGET_MS} ms; ` +
      `open loop p99 < ${P99_TARGET_MS} ms up to ${best ? `${best} req/s (the highest rate tried with it)` : 'none of the rates tried'}`);
  }
  for (const o of others) {
    o.child.stdin.end();
    await new Promise((r) => o.child.on('exit', r));
  }
  child.stdin.end();
  await new Promise((r) => child.on('exit', r));
  agent.destroy();
}

/** A same-origin request to the instance on `port` (the CSRF check compares Origin with the host asked). */
function request(agent, scenario, port, cookie) {
  const origin = `http://127.0.0.1:${port}`;
  return new Promise((resolve) => {
    const req = http.request({
      host: '127.0.0.1', port, method: scenario.method, path: scenario.path, agent,
      headers: { cookie, origin, ...(scenario.body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(scenario.body) } : {}) },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', () => resolve(0));
    if (scenario.body) req.write(scenario.body);
    req.end();
  });
}
