// Signed-in customers polling as spec §9 says — notifications every 3 s (with If-None-Match), the pending crypto
// payment every 5 s — against the server on PostgreSQL and on PGlite, next to a bare Fastify route in the same run.
//
//   node bench/polling.mjs                      (both databases; PostgreSQL from BENCH_DATABASE_URL, else
//                                                TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres)
//   BENCH_DB=pglite BENCH_CUSTOMERS=20000 BENCH_SECONDS=10 node bench/polling.mjs
//   BENCH_QUICK=1 node bench/polling.mjs        (quick mode: both databases, 50 customers, 8 connections, 1 s per
//                                                scenario, one spec-rate step; fails when an answer is not the expected one)
//
// Two measurements per database:
//  1. Throughput (closed loop, BENCH_CONCURRENCY connections, each request as a different customer): the bare
//     route, an unchanged notifications poll (304 from memory), and the pending-crypto poll, in req/s and p99.
//  2. The spec's rate (open loop): C customers each poll notifications every 3 s and the pending crypto payment
//     every 5 s, spread evenly; latency counts from the moment a request was due (no coordinated omission).
//     Run for each customer count in BENCH_RATE_CUSTOMERS (default 2000,5000,10000,20000) while the server keeps up.
//
// The server runs in a child process (from source through tsx); the load generator is this process, on the same
// machine (it takes a core of its own: the figures are what one server core sustains next to it).
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import { closedLoop, openLoop } from './lib/load.mjs';
import { QUICK, expectAnswers, knob } from './lib/quick.mjs';

const CUSTOMERS = knob('BENCH_CUSTOMERS', 20_000, 50);
const SECONDS = knob('BENCH_SECONDS', 10, 1);
const WARM_UP_SECONDS = QUICK ? 0.2 : 2;
const CONCURRENCY = knob('BENCH_CONCURRENCY', 64, 8);
const RATE_STEPS = (process.env.BENCH_RATE_CUSTOMERS ?? (QUICK ? '50' : '2000,5000,10000,20000')).split(',').map(Number).filter((n) => n <= CUSTOMERS);
const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DBS = (process.env.BENCH_DB ?? 'postgres,pglite').split(',');
// BENCH_SKIP_PENDING=1: the spec-rate runs poll notifications only (what an unchanged poll alone sustains).
const SKIP_PENDING = process.env.BENCH_SKIP_PENDING === '1';

if (process.argv[2] === '--serve') await serve(process.argv[3]);
else await main();

// ---- child: the server ------------------------------------------------------------------------------------------

async function serve(kind) {
  const { loadConfig } = await import('../apps/server/src/config.ts');
  const { openDatabase } = await import('../apps/server/src/db/database.ts');
  const { migrateToLatest } = await import('../apps/server/src/db/migrate.ts');
  const { buildApp } = await import('../apps/server/src/app.ts');
  const { sql } = await import('kysely');
  const Fastify = (await import('fastify')).default;

  let dropDatabase = async () => {};
  let database;
  if (kind === 'postgres') {
    const pg = (await import('pg')).default;
    const dbName = `cellport_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: BASE_URL });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    const url = new URL(BASE_URL);
    url.pathname = `/${dbName}`;
    database = await openDatabase({ databaseUrl: url.toString(), dataDir: '', poolSize: 10 });
    dropDatabase = async () => { await admin.query(`drop database if exists ${dbName} with (force)`); await admin.end(); };
  } else {
    database = await openDatabase({ dataDir: '', inMemory: true });
  }
  await migrateToLatest(database.db);
  const config = loadConfig({
    NODE_ENV: 'development', PORT: '0', CAPTCHA_PROVIDER: 'off', PUBLIC_URL: 'http://127.0.0.1', DATA_DIR: '/tmp/cellport-bench',
    LOG_LEVEL: 'info', LOG_PRETTY: 'false', WEB_DIST: '/nonexistent',
  });
  // The logger on at info (JSON lines to stdout, which the parent discards): request logging is part of a poll's cost.
  const { app } = await buildApp({ config, database, logger: true });

  // Customers with real sessions (the cookie token's sha256 is the session id), created in bulk.
  const cookies = [];
  const CHUNK = 1000;
  for (let i = 0; i < CUSTOMERS; i += CHUNK) {
    const users = [];
    const sessions = [];
    for (let j = i; j < Math.min(CUSTOMERS, i + CHUNK); j++) {
      const id = randomUUID();
      const token = randomBytes(32).toString('base64url');
      users.push({ id, email: `bench-${j}-${id.slice(0, 8)}@bench.local`, name: 'Bench Customer', password_hash: 'x', is_verified: true });
      sessions.push({ id: createHash('sha256').update(token).digest('hex'), user_id: id, expires_at: new Date(Date.now() + 86_400_000) });
      cookies.push(`cp_session=${token}`);
    }
    await database.db.insertInto('users').values(users).execute();
    await database.db.insertInto('sessions').values(sessions).execute();
  }
  // A few notifications for some customers, so the versions are not all zero.
  await sql`insert into poll_versions (user_id, kind, version) select id, 'notifications', 3 from users where email like 'bench-1%'`.execute(database.db);

  await app.listen({ port: 0, host: '127.0.0.1' });
  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({ ok: true }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ port: app.server.address().port, barePort: bare.server.address().port, cookies })}\n`);

  process.stdin.resume();
  process.stdin.on('end', async () => {
    await bare.close();
    await app.close();
    await database.close();
    await dropDatabase();
    process.exit(0);
  });
}

// ---- parent: the load generator ---------------------------------------------------------------------------------

async function main() {
  console.log(`Polling bench — ${new Date().toISOString().slice(0, 16)}Z, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}`);
  console.log(`${CUSTOMERS} customers with sessions; throughput: ${CONCURRENCY} connections, ${SECONDS} s per scenario`);
  for (const kind of DBS) await benchOne(kind);
}

async function benchOne(kind) {
  const startedSetup = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, '--serve', kind], {
    stdio: ['pipe', 'pipe', 'ignore'], cwd: new URL('..', import.meta.url).pathname,
  });
  const setup = await new Promise((resolve, reject) => {
    let buf = '';
    // Log lines may come first: the setup is the JSON line carrying the cookies.
    const onData = (d) => {
      buf += d;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.startsWith('{"port"')) { child.stdout.off('data', onData); child.stdout.resume(); resolve(JSON.parse(line)); return; }
      }
    };
    child.stdout.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  console.log(`\n=== ${kind === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded)'} — setup ${((performance.now() - startedSetup) / 1000).toFixed(0)} s`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const { cookies } = setup;
  const etags = new Map();
  const pendingEtags = new Map();

  // Warm-up: every customer polls once (sessions and versions enter the server's memory), keeping their ETag.
  const t0 = performance.now();
  await inTurns(cookies.length, CONCURRENCY, async (i) => {
    const res = await get(agent, setup.port, '/api/v1/notifications', cookies[i]);
    etags.set(i, res.etag);
    pendingEtags.set(i, (await get(agent, setup.port, '/api/v1/pending-crypto-payment-active', cookies[i])).etag);
    return res.status;
  });
  console.log(`warm-up: ${cookies.length} customers × 2 first polls in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const pendingExists = (await get(agent, setup.port, '/api/v1/pending-crypto-payment-active', cookies[0])).status === 200;
  const pendingInRate = pendingExists && !SKIP_PENDING;

  const scenarios = [
    { name: 'bare Fastify GET /bare', run: (i) => get(agent, setup.barePort, '/bare', cookies[i % cookies.length]) },
    { name: 'GET /notifications (304)', run: (i) => get(agent, setup.port, '/api/v1/notifications', cookies[i % cookies.length], etags.get(i % cookies.length)), expect: 304 },
    ...(pendingExists ? [{ name: 'GET /pending-crypto (304)', run: (i) => get(agent, setup.port, '/api/v1/pending-crypto-payment-active', cookies[i % cookies.length], pendingEtags.get(i % cookies.length)), expect: 304 }] : []),
  ];
  const results = [];
  for (const s of scenarios) await timed(s, WARM_UP_SECONDS, agent); // JIT warm-up
  for (const s of scenarios) {
    const r = await timed(s, SECONDS, agent);
    expectAnswers(`${kind} ${s.name}`, r);
    results.push({ name: s.name, ...r });
  }
  const bare = results[0];
  console.log('throughput                              req/s    p50 ms   p99 ms  errors   vs bare');
  for (const r of results) {
    console.log(`${r.name.padEnd(36)} ${r.rps.toFixed(0).padStart(7)}  ${r.p50.toFixed(2).padStart(7)}  ${r.p99.toFixed(2).padStart(7)}  ${String(r.errors).padStart(6)}   ${(r.rps / bare.rps).toFixed(2)}×`);
  }

  console.log(`spec rate (notifications / 3 s${pendingInRate ? ' and pending crypto / 5 s' : ' only'}, both with If-None-Match), open loop, latency from due time:`);
  console.log('customers   target req/s   sent req/s   p50 ms   p99 ms   max ms   errors');
  for (const n of RATE_STEPS) {
    const r = await specRate(n, agent, setup, etags, pendingInRate, pendingEtags);
    expectAnswers(`${kind} spec rate, ${n} customers`, r);
    console.log(`${String(n).padStart(9)}   ${r.target.toFixed(0).padStart(12)}   ${r.rps.toFixed(0).padStart(10)}  ${r.p50.toFixed(1).padStart(7)}  ${r.p99.toFixed(1).padStart(7)}  ${r.max.toFixed(0).padStart(7)}  ${String(r.errors).padStart(7)}`);
    if (r.p99 > 1000) { console.log('(the server no longer keeps up; larger counts skipped)'); break; }
  }

  child.stdin.end();
  await new Promise((r) => child.on('exit', r));
  agent.destroy();
}

/** `concurrency` workers take indexes 0..total-1 in turn. */
async function inTurns(total, concurrency, fn) {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < total) await fn(next++);
  }));
}

function timed(scenario, seconds) {
  return closedLoop(seconds, CONCURRENCY, (_worker, i) => scenario.run(i).then((res) => res.status === (scenario.expect ?? 200)));
}

/** Each customer polls on its own schedule, phases spread evenly; a request is sent when due, whatever is in flight. */
async function specRate(customers, agent, setup, etags, pendingExists, pendingEtags) {
  const seconds = SECONDS;
  const due = [];
  for (let c = 0; c < customers; c++) {
    const phaseN = (c / customers) * 3000;
    for (let t = phaseN; t < seconds * 1000; t += 3000) due.push({ at: t, c, kind: 'n' });
    if (pendingExists) {
      const phaseP = ((c * 7919) % customers / customers) * 5000;
      for (let t = phaseP; t < seconds * 1000; t += 5000) due.push({ at: t, c, kind: 'p' });
    }
  }
  due.sort((a, b) => a.at - b.at);
  // Both polls are unchanged: each answers 304 from memory.
  const result = await openLoop(due, (d) => (d.kind === 'n'
    ? get(agent, setup.port, '/api/v1/notifications', setup.cookies[d.c], etags.get(d.c))
    : get(agent, setup.port, '/api/v1/pending-crypto-payment-active', setup.cookies[d.c], pendingEtags.get(d.c)))
    .then((res) => res.status === 304));
  const target = customers / 3 + (pendingExists ? customers / 5 : 0);
  return { ...result, target };
}

function get(agent, port, path, cookie, etag) {
  return new Promise((resolve) => {
    const req = http.request({
      host: '127.0.0.1', port, method: 'GET', path, agent,
      headers: { cookie, ...(etag ? { 'if-none-match': etag } : {}) },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, etag: res.headers.etag }));
    });
    req.on('error', () => resolve({ status: 0 }));
    req.end();
  });
}
