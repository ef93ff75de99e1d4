// Buying from the balance and listing ports, with 50 concurrent customers on PostgreSQL, next to a bare Fastify
// route measured in the same run (same machine, same load generator) so the figures compare like with like.
//
//   node bench/buying.mjs            (needs PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL,
//                                     else postgres://postgres@127.0.0.1:5432/postgres)
//   BENCH_SECONDS=10 node bench/buying.mjs
//
// The server runs in a child process (from source through tsx) so the load generator does not share its event loop.
// It gets a fresh database (dropped at the end) with the demo catalog, 6,000 extra dedicated modems, and 50 customers
// holding $1,000,000 each and a real session. Printed: requests/s, p50 and p99 latency, and the ratio to the bare route.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

if (process.argv[2] === '--serve') await serve();
else await measure();

// ---- child: the server ------------------------------------------------------------------------------------------

async function serve() {
  const pg = (await import('pg')).default;
  const { loadConfig } = await import('../apps/server/src/config.ts');
  const { openDatabase } = await import('../apps/server/src/db/database.ts');
  const { migrateToLatest } = await import('../apps/server/src/db/migrate.ts');
  const { buildApp } = await import('../apps/server/src/app.ts');
  const { seedCatalog } = await import('../apps/server/src/db/seed/catalog.ts');
  const { LedgerService } = await import('../apps/server/src/modules/ledger/ledger.service.ts');
  const Fastify = (await import('fastify')).default;

  const dbName = `cellport_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const url = new URL(BASE_URL);
  url.pathname = `/${dbName}`;

  const config = loadConfig({
    NODE_ENV: 'test', PORT: '0', CAPTCHA_PROVIDER: 'off', PUBLIC_URL: 'http://127.0.0.1', DATA_DIR: '/tmp/cellport-bench',
    RATE_LIMIT_PAYMENTS_PER_MINUTE: '1000000', LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent',
  });
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '', poolSize: 20 });
  await migrateToLatest(database.db);
  const { app, ctx } = await buildApp({ config, database, logger: false });
  await seedCatalog(ctx);
  const { sql } = await import('kysely');
  // Enough dedicated stock in the US for every purchase of the run.
  await sql`
    insert into modems (imei, host_id, http_port, socks_port, ext_ip, country_id, carrier_id, is_shared, capacity)
    select 'B' || lpad(g::text, 14, '0'), h.id, 40000 + g, 50000 + g, '198.51.100.' || (g % 250 + 1), c.id, ca.id, false, 1
    from generate_series(1, 6000) g
    cross join (select id from hosts where name like 'us%' limit 1) h
    cross join (select id from countries where code = 'US') c
    cross join (select id from carriers where name = 'T-Mobile') ca
  `.execute(database.db);
  const us = await database.db.selectFrom('countries').select('id').where('code', '=', 'US').executeTakeFirstOrThrow();
  const tariff = await database.db.selectFrom('tariffs').select('id')
    .where('country_id', '=', us.id).where('is_shared', '=', false).where('period', '=', 'day').executeTakeFirstOrThrow();
  const ledger = new LedgerService(database.db);
  const cookies = [];
  for (let i = 0; i < CUSTOMERS; i++) {
    const id = randomUUID();
    await database.db.insertInto('users').values({ id, email: `bench-${i}-${id}@bench.local`, name: 'Bench', password_hash: 'x', is_verified: true }).execute();
    await database.db.transaction().execute((tx) => ledger.credit(tx, { userId: id, coin: 'usdt', amount: 1_000_000n * 1_000_000n, kind: 'bench', reference: `bench:${id}` }));
    cookies.push(`cp_session=${await ctx.sessions.create(id, { ip: '127.0.0.1', headers: {} })}`);
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({ ok: true }));
  await bare.listen({ port: 0, host: '127.0.0.1' });

  process.stdout.write(`${JSON.stringify({
    port: app.server.address().port, barePort: bare.server.address().port, cookies,
    body: { tariff_id: tariff.id, country_id: us.id, isShared: false, rotationInterval: 0, modemCount: 1 },
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

// ---- parent: the load generator ---------------------------------------------------------------------------------

async function measure() {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, '--serve'], {
    stdio: ['pipe', 'pipe', 'inherit'], cwd: new URL('..', import.meta.url).pathname,
  });
  const setup = await new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(buf.slice(0, nl)));
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: CUSTOMERS * 2 });
  const origin = `http://127.0.0.1:${setup.port}`;
  const buyBody = JSON.stringify(setup.body);

  const scenarios = [
    { name: 'bare Fastify GET /bare', port: setup.barePort, method: 'GET', path: () => '/bare' },
    { name: 'POST /api/v1/payment/balance/buy', port: setup.port, method: 'POST', path: () => '/api/v1/payment/balance/buy', body: buyBody },
    { name: 'GET /api/v1/modems', port: setup.port, method: 'GET', path: () => '/api/v1/modems' },
  ];
  // Warm-up: JIT, connection pools, prepared plans.
  for (const s of scenarios) await run(s, 1, agent, setup.cookies, origin);
  const results = [];
  for (const s of scenarios) results.push({ ...s, ...(await run(s, SECONDS, agent, setup.cookies, origin)) });
  const bare = results[0];

  const ports = results[1].ok;
  console.log(`\n${CUSTOMERS} concurrent customers, ${SECONDS} s per scenario, PostgreSQL, ${new Date().toISOString().slice(0, 10)}`);
  console.log('scenario                              req/s    p50 ms   p99 ms   errors   vs bare');
  for (const r of results) {
    console.log(`${r.name.padEnd(36)} ${r.rps.toFixed(0).padStart(6)}  ${r.p50.toFixed(1).padStart(7)}  ${r.p99.toFixed(1).padStart(7)}  ${String(r.errors).padStart(7)}   ${(r.rps / bare.rps * 100).toFixed(1)} %`);
  }
  console.log(`(GET /api/v1/modems lists ~${Math.round(ports / CUSTOMERS)} ports per customer, bought in the buy scenario)`);
  const p99Target = 50;
  for (const r of results.slice(1)) console.log(`${r.name}: p99 ${r.p99.toFixed(1)} ms ${r.p99 < p99Target ? '<' : '≥'} ${p99Target} ms target`);
  child.stdin.end();
  await new Promise((r) => child.on('exit', r));
  agent.destroy();
}

/** One worker per customer, each sending its next request as soon as the previous answer arrived. */
async function run(scenario, seconds, agent, cookies, origin) {
  const latencies = [];
  let errors = 0;
  let ok = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(cookies.map(async (cookie) => {
    while (performance.now() < until) {
      const t0 = performance.now();
      const status = await request(agent, scenario, cookie, origin);
      latencies.push(performance.now() - t0);
      if (status === 200) ok++;
      else errors++;
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return { rps: latencies.length / elapsed, p50: pct(0.5), p99: pct(0.99), errors, ok };
}

function request(agent, scenario, cookie, origin) {
  return new Promise((resolve) => {
    const req = http.request({
      host: '127.0.0.1', port: scenario.port, method: scenario.method, path: scenario.path(), agent,
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
