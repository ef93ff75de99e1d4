// The scale suite (issue 13, item 7): the hot customer routes and the operator's searches on a PostgreSQL database
// holding 100,000 customers, 50,000 modems, 300,000 ports, 1,000,000 notifications, 5,000,000 traffic samples and
// 1,000,000 ledger entries, against the same routes on an empty database, in the same run.
//
//   node bench/scale.mjs                    (full size; PostgreSQL from BENCH_DATABASE_URL, else TEST_DATABASE_URL's
//                                            server, else postgres://postgres@127.0.0.1:5432/postgres)
//   node bench/scale.mjs --scale 0.01       (1 % of every table: checks the script in seconds)
//   nice node bench/scale.mjs --scale 10    (1,000,000 customers, 500,000 modems, 50,000,000 traffic samples: about
//                                            an hour's seed beside other work; its database is `cellport_scale_x10`)
//   node bench/scale.mjs --reuse            (keep the seeded database of an earlier run: migrations still run, so a
//                                            new index is measured without seeding again)
//   BENCH_REQUESTS=400 BENCH_ROUTE_SECONDS=30 BENCH_ONLY=customers,payments node bench/scale.mjs --reuse   (2,000 by default)
//   BENCH_QUICK=1 node bench/scale.mjs      (quick mode: --scale 0.001, 8 requests per route and database, databases of
//                                            its own named after the process, dropped at the end; fails when a route
//                                            answers wrongly)
//
// Two server processes (from source through tsx, logger off, the product's pool of 10), one per database:
// `cellport_scale_empty` (the demo catalog, 2,000 free dedicated modems, the measured customer and an operator) and
// `cellport_scale` (the same, plus the bulk rows, written set-based with generate_series in a few statements; at another
// --scale `cellport_scale_x<scale>`). Both databases are dropped and created again by each run (`--reuse` keeps the
// scaled one when it was seeded at the same scale); the tests' database (`test`) is never touched.
//
// The measured customer is the same shape in both: a session, a top-up, 3 dedicated ports bought through the real
// route, 30 notifications, 5 ledger entries more, and hourly traffic for the last 35 hours on each port. Every route
// is asked BENCH_REQUESTS times per database (or for BENCH_ROUTE_SECONDS, whichever ends first), one request at a
// time (latency of the route, not of a queue), in four blocks that alternate empty and scaled databases so the
// machine's load drifts over both alike. Targets (issue 31): a customer route's p99 on the scaled database within
// 1.2× of the empty one's or at most 5 ms; the operator's searches under 100 ms p99; the overview within 1.2×.
import { spawn } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { addDedicatedStock, databaseUrl } from './lib/bench-database.mjs';
import { stats } from './lib/load.mjs';
import { QUICK, expectAnswers, knob } from './lib/quick.mjs';

const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const SCALE = Number(arg('--scale') ?? (QUICK ? 0.001 : 1));
const REUSE = process.argv.includes('--reuse');
// 2,000 since 2026-12-07 (400 before): a p99 of 400 answers is the fourth-slowest, and two quiet runs at --scale 10
// missed on different routes, each decided by a few 3-8 ms stalls of the machine (bench/BENCHMARKS.md, Scale, 09:42).
// Of 2,000 it is the twentieth-slowest. Routes of 1-8 ms take 2-16 s per database at this count.
const REQUESTS = knob('BENCH_REQUESTS', 2000, 8);
const WARM_UP_REQUESTS = QUICK ? 1 : 5;
/** At most this long per route and database (a route that takes a second per answer stops early). */
const ROUTE_SECONDS = knob('BENCH_ROUTE_SECONDS', 30, 2);
const ONLY = process.env.BENCH_ONLY?.split(',');
const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN_URL = databaseUrl(BASE_URL, 'postgres');
// Quick mode (CI, maybe beside another run) never touches the full run's databases: it has its own, named after this
// process (the servers get the names in their arguments).
const QUICK_SUFFIX = QUICK ? `_quick_${process.pid}` : '';
// Each scale has its own database (`cellport_scale` at 1, `cellport_scale_x10` at 10), so a run at one scale never drops
// the other's hour-long seed and `--reuse` finds it.
const SCALED_DB = `cellport_scale${SCALE === 1 ? '' : `_x${String(SCALE).replace('.', '_')}`}${QUICK_SUFFIX}`;
const EMPTY_DB = `cellport_scale_empty${QUICK_SUFFIX}`;
const RATIO_TARGET = 1.2;
/** A customer route whose p99 on the scaled database is at most this meets its target whatever the ratio (issue 31). */
const CUSTOMER_MS_TARGET = 5;
/**
 * Operator sessions the servers make: OPERATORS_PER_ROUTE for each of the table's 16 console routes, taken in turn,
 * as the console's reads are limited per operator (600 a minute, lib/console-http.ts) and a route is asked up to
 * BENCH_REQUESTS + 5 times, most often in well under a minute.
 */
const OPERATORS_PER_ROUTE = 4;
const OPERATORS = 16 * OPERATORS_PER_ROUTE;
const SEARCH_TARGET_MS = 100;

/** The bulk sizes at --scale 1 (issue 13, item 7). */
const SIZES = {
  customers: 100_000, modems: 50_000, ports: 300_000, notifications: 1_000_000, trafficSamples: 5_000_000, ledgerEntries: 1_000_000,
};

/** The tables the bulk seed writes millions of rows into. */
const BULK_TABLES = ['ports', 'payments', 'payment_ports', 'invoices', 'notifications', 'ledger_entries', 'traffic_samples'];

if (process.argv[2] === '--serve') await serve(process.argv[3], process.argv[4] === 'seed');
else {
  try {
    await main();
  } finally {
    if (QUICK) await dropDatabases([SCALED_DB, EMPTY_DB]);
  }
}

// ---- child: one server on one database ------------------------------------------------------------------------------

async function serve(dbName, bulk) {
  const pg = (await import('pg')).default;
  const { loadConfig } = await import('../apps/server/src/config.ts');
  const { openDatabase } = await import('../apps/server/src/db/database.ts');
  const { migrateToLatest } = await import('../apps/server/src/db/migrate.ts');
  const { buildApp } = await import('../apps/server/src/app.ts');
  const { seedCatalog } = await import('../apps/server/src/db/seed/catalog.ts');
  const { LedgerRepository, LedgerService } = await import('../apps/server/src/modules/ledger/index.ts');

  const url = databaseUrl(BASE_URL, dbName);
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [dbName])).rowCount > 0;
  let seeded = false;
  if (exists && REUSE && bulk) {
    const probe = new pg.Client({ connectionString: url });
    await probe.connect();
    seeded = (await probe.query(`select 1 from pg_tables where tablename = 'scale_seed'`)).rowCount > 0
      && (await probe.query('select scale from scale_seed')).rows[0]?.scale === SCALE;
    await probe.end();
  }
  if (!seeded) {
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.query(`create database ${dbName}`);
  }
  await admin.end();

  const config = loadConfig({
    NODE_ENV: 'development', PORT: '0', CAPTCHA_PROVIDER: 'off', PUBLIC_URL: 'http://127.0.0.1', DATA_DIR: '/tmp/cellport-bench',
    RATE_LIMIT_PAYMENTS_PER_MINUTE: '1000000', LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent',
  });
  const database = await openDatabase({ databaseUrl: url, dataDir: '' });
  const tMigrate = performance.now();
  await migrateToLatest(database.db);
  const migrateMs = performance.now() - tMigrate;
  const { app, ctx } = await buildApp({ config, database, logger: false });
  const db = database.db;
  let seedSeconds = null;
  if (!seeded) {
    await seedCatalog(ctx);
    await addDedicatedStock(db, 2000);
    if (bulk) seedSeconds = await seedBulk(url);
  }
  const { sql } = await import('kysely');
  await sql`analyze`.execute(db);

  // The operators (OPERATORS above: a few per console route, for the console's per-operator limit).
  const adminCookies = [];
  for (let i = 0; i < OPERATORS; i++) {
    const adminId = randomUUID();
    await db.insertInto('users').values({ id: adminId, email: `scale-operator-${adminId.slice(0, 8)}@bench.local`, name: 'Operator', password_hash: 'x', is_verified: true, role: 'admin' }).execute();
    adminCookies.push(`cp_session=${await ctx.sessions.create(adminId, { ip: '127.0.0.1', headers: {} })}`);
  }
  const adminCookie = adminCookies[0];

  // The measured customer: the same shape on both databases.
  const ledger = new LedgerService(new LedgerRepository(db));
  const userId = randomUUID();
  const email = `measured-${userId.slice(0, 8)}@bench.local`;
  await db.insertInto('users').values({ id: userId, email, name: 'Measured Customer', company_name: 'Measured Ltd', password_hash: 'x', is_verified: true }).execute();
  for (let i = 0; i < 5; i++) {
    await db.transaction().execute((tx) => ledger.credit(tx, { userId, coin: 'usdt', amount: 200_000n * 1_000_000n, kind: 'bench', reference: `bench:${userId}:${i}` }));
  }
  const cookie = `cp_session=${await ctx.sessions.create(userId, { ip: '127.0.0.1', headers: {} })}`;
  const us = await db.selectFrom('countries').select('id').where('code', '=', 'US').executeTakeFirstOrThrow();
  const tariff = await db.selectFrom('tariffs').select('id')
    .where('country_id', '=', us.id).where('is_shared', '=', false).where('period', '=', 'day').executeTakeFirstOrThrow();
  const buyBody = { tariff_id: tariff.id, country_id: us.id, isShared: false, rotationInterval: 0, modemCount: 1 };
  const bought = await app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', headers: { cookie, origin: 'http://127.0.0.1' }, payload: { ...buyBody, modemCount: 3 } });
  if (bought.statusCode !== 200) throw new Error(`setup purchase failed: ${bought.statusCode} ${bought.body}`);
  await sql`
    insert into notifications (user_id, type, text_key, params, text, unread, created_at)
    select ${userId}, case when g % 3 = 0 then 'payment' else 'other' end, 'bench.notice', '{}'::jsonb, 'Bench notice ' || g,
      g % 4 = 0, now() - make_interval(hours => g * 7)
    from generate_series(1, 30) g`.execute(db);
  await sql`
    insert into traffic_samples (host_id, imei, interval_start, modem_id, port_id, user_id, bytes_in, bytes_out, port_key)
    select m.host_id, m.imei, date_trunc('hour', now()) - make_interval(hours => h), m.id, p.id, p.user_id,
      1000000 + h * 1000, 100000 + h * 100, p.id
    from ports p join modems m on m.id = p.modem_id cross join generate_series(1, 35) h
    where p.user_id = ${userId}`.execute(db);
  const payment = await db.selectFrom('payments').select('id').where('user_id', '=', userId).where('kind', '=', 'purchase').executeTakeFirstOrThrow();
  const modem = await db.selectFrom('ports as p').innerJoin('modems as m', 'm.id', 'p.modem_id').select('m.imei')
    .where('p.user_id', '=', userId).orderBy('p.created_at').executeTakeFirstOrThrow();
  await sql`analyze`.execute(db);

  const counts = Object.fromEntries(await Promise.all(['users', 'modems', 'ports', 'notifications', 'traffic_samples', 'ledger_entries', 'payments', 'invoices']
    .map(async (t) => [t, Number((await sql`select count(*)::int as n from ${sql.table(t)}`.execute(db)).rows[0].n)])));

  await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({
    port: app.server.address().port, cookie, adminCookie, adminCookies, buyBody, userId, email, paymentId: payment.id, imei: modem.imei,
    counts, seedSeconds, migrateMs, reused: seeded,
  })}\n`);
  process.stdin.resume();
  process.stdin.on('end', async () => {
    await app.close();
    await database.close();
    process.exit(0);
  });
}

/**
 * The bulk rows, set-based: each table is one INSERT … SELECT over generate_series. Ids are an md5 of the row number, so
 * a port's customer and a sample's port are computed, not looked up. Foreign-key and list-change triggers are off for
 * the session (session_replication_role = replica): every reference is built valid, and the counters they would keep
 * (modems.used_slots, balances, invoice numbers) are set from the rows afterwards, so the app's invariants hold.
 */
async function seedBulk(url) {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const n = Object.fromEntries(Object.entries(SIZES).map(([k, v]) => [k, Math.max(1, Math.round(v * SCALE))]));
  const hosts = Math.max(1, Math.round(50 * Math.min(1, SCALE * 10)));
  const dedicated = Math.round(n.modems * 0.7); // modems 0..dedicated-1 are dedicated; the rest shared, capacity 10
  const shared = n.modems - dedicated;
  const activeDedicated = Math.round(n.modems * 0.5); // a port on each of these; the other dedicated modems are free stock
  const perShared = 8;
  const active = Math.min(n.ports, activeDedicated + shared * perShared);
  const samplesPerPort = Math.ceil(n.trafficSamples / active);
  const started = performance.now();
  const step = async (label, text, values = []) => {
    const t0 = performance.now();
    const r = await c.query(text, values);
    process.stderr.write(`  seed: ${label.padEnd(44)} ${String(r.rowCount ?? '').padStart(9)} rows  ${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s\n`);
  };
  process.stderr.write(`seeding ${dedicated} dedicated + ${shared} shared modems on ${hosts} hosts, ${active} of ${n.ports} ports active, ${samplesPerPort} samples per active port\n`);
  // A v4-shaped uuid from a text (the API's schemas check the version and variant digits).
  await c.query(`create function pg_temp.sid(text) returns uuid language sql immutable
    as $$ select overlay(overlay(md5($1) placing '4' from 13) placing '8' from 17)::uuid $$`);
  await c.query(`set session_replication_role = replica; set synchronous_commit = off; set maintenance_work_mem = '1GB'; set work_mem = '64MB'`);
  // The PostgreSQL server is shared (other tests, other benches): the seed's backend runs at a lower priority and on one
  // core (no parallel workers, which would run at the normal priority).
  await c.query('set max_parallel_workers_per_gather = 0; set max_parallel_maintenance_workers = 0');
  const backendPid = (await c.query('select pg_backend_pid() as pid')).rows[0].pid;
  try {
    os.setPriority(backendPid, 10);
  } catch {
    // Not the database's machine or not allowed: the seed runs at the server's priority.
  }
  // The bulk tables are filled without their secondary indexes and unreferenced keys, which are built afterwards in one
  // sorted pass each: 50,000,000 random insertions into a btree (traffic samples at --scale 10) cost many times a sort.
  const deferred = await deferIndexes(c, BULK_TABLES);
  await step('customers', `
    insert into users (id, email, name, company_name, password_hash, language, is_verified, created_at, updated_at)
    select pg_temp.sid('u' || g), 'customer' || g || '@scale.example', 'Customer ' || g,
      case when g % 3 = 0 then 'Company ' || (g % 5000) else '' end, 'x', (array['en', 'ru', 'cn'])[1 + g % 3], true,
      now() - make_interval(days => g % 730, secs => g % 86400), now()
    from generate_series(1, $1::int) g`, [n.customers]);
  await step('hosts', `
    insert into hosts (id, name, address) select pg_temp.sid('h' || g), 'scale' || g || '.proxy.example', '10.255.' || g || '.1'
    from generate_series(0, $1::int - 1) g`, [hosts]);
  // Modems over every carrier (and its region) of the catalog, round robin; 2 % offline.
  await step('modems', `
    with ca as (
      select row_number() over (order by c.id) - 1 as k, c.id as carrier_id, c.country_id,
        (select r.id from regions r where r.carrier_id = c.id order by r.id limit 1) as region_id
      from carriers c
    ), nca as (select count(*) as n from ca)
    insert into modems (id, imei, host_id, http_port, socks_port, ext_ip, country_id, carrier_id, region_id, is_shared, capacity, online)
    select pg_temp.sid('m' || g), 'S' || lpad(g::text, 14, '0'), pg_temp.sid('h' || (g % $2)),
      20000 + 2 * (g / $2), 20001 + 2 * (g / $2), '10.' || (g / 65536) || '.' || (g / 256 % 256) || '.' || (g % 256),
      ca.country_id, ca.carrier_id, case when g % 4 = 0 then null else ca.region_id end,
      g >= $3, case when g >= $3 then 10 else 1 end, g % 50 <> 7
    from generate_series(0, $1::int - 1) g cross join nca join ca on ca.k = g % nca.n`, [n.modems, hosts, dedicated]);
  // Ports: one on each of the first activeDedicated modems, perShared on each shared modem, the rest released
  // (history) on any modem. Customer of port k: a fixed permutation of the customers.
  await step('ports', `
    with p as (
      select k,
        case when k < $2 then k when k < $3 then $4 + (k - $2) % $5 else (k * 31) % $6 end as modem,
        case when k < $3 then 'active' else 'released' end as status
      from generate_series(0, $1::int - 1) k
    )
    insert into ports (id, user_id, modem_id, tariff_id, is_shared, name, proxy_login, proxy_password, rotation_nonce,
      rotation_token_hash, status, expires_at, created_at, released_at)
    select pg_temp.sid('p' || p.k), pg_temp.sid('u' || (1 + (p.k::bigint * 7919) % $7)), m.id, t.id, m.is_shared, 'Proxy ' || p.k,
      'scale' || p.k, md5('pw' || p.k), md5('n' || p.k), md5('t' || p.k), p.status,
      case when p.status = 'active' then now() + make_interval(days => p.k % 30, hours => 1) else now() - make_interval(days => p.k % 300) end,
      now() - make_interval(days => 30 + p.k % 330), case when p.status = 'released' then now() - make_interval(days => p.k % 300) end
    from p join modems m on m.id = pg_temp.sid('m' || p.modem)
    join tariffs t on t.seed_key = (select code from countries where id = m.country_id) || ':' || case when m.is_shared then 'shared' else 'dedicated' end || ':month'`,
  [n.ports, activeDedicated, active, dedicated, shared, n.modems, n.customers]);
  await step('modems.used_slots from the ports', `
    update modems m set used_slots = u.n from (
      select modem_id, count(*) as n from ports where status <> 'released' and proxy_login like 'scale%' group by modem_id
    ) u where m.id = u.modem_id`);
  // One completed purchase per port (60 % from the balance, the rest by an outside provider), its link and invoice.
  await step('payments', `
    insert into payments (id, user_id, provider, kind, status, amount, description, modem_count, tariff_id, created_at)
    select pg_temp.sid('pay' || p.name), p.user_id, (array['balance', 'balance', 'balance', 'crypto', 'card', 'paypal'])[1 + abs(hashtext(p.name)::bigint) % 6],
      'purchase', 'completed', t.price, 'Proxy · month × 1', 1, t.id, p.created_at
    from ports p join tariffs t on t.id = p.tariff_id where p.proxy_login like 'scale%'`);
  await step('payment_ports', `
    insert into payment_ports (payment_id, port_id) select pg_temp.sid('pay' || name), id from ports where proxy_login like 'scale%'`);
  // Numbered per year from 000001 as invoice-number-format.ts writes them (at least 6 digits, more past 999,999).
  await step('invoices', `
    insert into invoices (user_id, payment_id, provider, description, amount, lines, customer, issued_at, number)
    select user_id, id, provider, description, amount,
      jsonb_build_array(jsonb_build_object('description', description, 'quantity', 1, 'unitAmount', amount::text, 'amount', amount::text)),
      jsonb_build_object('name', name, 'email', email, 'company_name', company_name), created_at,
      'CP-' || year || '-' || case when seq < 1000000 then lpad(seq::text, 6, '0') else seq::text end
    from (
      select p.user_id, p.id, p.provider, p.description, p.amount, p.created_at, u.name, u.email, u.company_name,
        extract(year from p.created_at at time zone 'UTC') as year,
        row_number() over (partition by extract(year from p.created_at at time zone 'UTC') order by p.created_at, p.id) as seq
      from payments p join users u on u.id = p.user_id where u.email like '%@scale.example'
    ) numbered`);
  await step('invoice_counters', `
    insert into invoice_counters (year, last)
    select extract(year from issued_at at time zone 'UTC')::int, count(*) from invoices group by 1
    on conflict (year) do update set last = excluded.last`);
  await step('notifications', `
    insert into notifications (id, user_id, type, text_key, params, text, unread, created_at)
    select pg_temp.sid('no' || g), pg_temp.sid('u' || (1 + g % $2)), case when g % 3 = 0 then 'payment' else 'other' end,
      'bench.notice', '{}'::jsonb, 'Notice ' || g, g % 7 = 0, now() - make_interval(mins => g % 129600)
    from generate_series(1, $1::int) g`, [n.notifications, n.customers]);
  // Entry i of customer u: even i a credit of $100, odd i a debit of $40 (the balance never goes below 0).
  await step('ledger_entries', `
    insert into ledger_entries (user_id, coin, amount, kind, reference, created_at)
    select pg_temp.sid('u' || (1 + (g - 1) % $2)), 'usdt',
      case when ((g - 1) / $2) % 2 = 0 then 100000000 else -40000000 end,
      case when ((g - 1) / $2) % 2 = 0 then 'topup' else 'purchase' end, 'scale:' || g,
      now() - make_interval(days => 400 - ((g - 1) / $2)::int % 400)
    from generate_series(1, $1::int) g`, [n.ledgerEntries, n.customers]);
  await step('balances = the ledger sums', `
    insert into balances (user_id, coin, amount)
    select user_id, coin, sum(amount) from ledger_entries where reference like 'scale:%' group by user_id, coin`);
  await step('traffic_samples', `
    insert into traffic_samples (host_id, imei, interval_start, modem_id, port_id, user_id, bytes_in, bytes_out, port_key, received_at)
    select m.host_id, m.imei, date_trunc('hour', now()) - make_interval(hours => h), m.id, p.id, p.user_id,
      1000000 + (abs(hashtext(p.name)::bigint) + h * 7919) % 50000000, 100000 + (abs(hashtext(p.name)::bigint) + h) % 5000000, p.id, now()
    from ports p join modems m on m.id = p.modem_id cross join generate_series(1, $1::int) h
    where p.status = 'active' and p.proxy_login like 'scale%'
    limit $2`, [samplesPerPort, n.trafficSamples]);
  for (const { table, name, create } of deferred) await step(`index ${table}.${name}`, create);
  await c.query('set session_replication_role = origin');
  await step('vacuum analyze', 'vacuum analyze');
  await c.query('create table scale_seed (scale double precision not null)');
  await c.query('insert into scale_seed values ($1)', [SCALE]);
  await c.end();
  return (performance.now() - started) / 1000;
}

/**
 * Drops the indexes of `tables` that no foreign key depends on (plain indexes, and primary keys and unique constraints
 * nothing references) and returns the statements that build them again, in the same definitions.
 */
async function deferIndexes(c, tables) {
  const { rows } = await c.query(`
    select t.relname as table, ic.relname as name, con.conname, pg_get_indexdef(i.indexrelid) as indexdef,
      pg_get_constraintdef(con.oid) as condef
    from pg_index i
    join pg_class t on t.oid = i.indrelid
    join pg_class ic on ic.oid = i.indexrelid
    left join pg_constraint con on con.conindid = i.indexrelid and con.conrelid = i.indrelid and con.contype in ('p', 'u', 'x')
    where t.relname = any($1) and t.relnamespace = 'public'::regnamespace
      and not exists (select 1 from pg_constraint f where f.contype = 'f' and f.conindid = i.indexrelid)
    order by t.relname, ic.relname`, [tables]);
  for (const r of rows) {
    await c.query(r.conname ? `alter table ${r.table} drop constraint ${r.conname}` : `drop index ${r.name}`);
  }
  return rows.map((r) => ({
    table: r.table, name: r.name,
    create: r.conname ? `alter table ${r.table} add constraint ${r.conname} ${r.condef}` : r.indexdef,
  }));
}

// ---- parent: the load generator ---------------------------------------------------------------------------------

async function main() {
  const load = () => os.loadavg().map((x) => x.toFixed(1)).join(' ');
  console.log(`Scale bench — ${new Date().toISOString().slice(0, 16)}Z, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}, scale ${SCALE}, load average ${load()}`);
  const scaledServer = await startServer(SCALED_DB, 'seed');
  const scaled = scaledServer.setup;
  console.log(`scaled database ${SCALED_DB}: ${scaled.reused ? 'reused' : `seeded in ${scaled.seedSeconds?.toFixed(0)} s`}; ${Object.entries(scaled.counts).map(([k, v]) => `${k} ${v.toLocaleString('en')}`).join(', ')}`);
  const emptyServer = await startServer(EMPTY_DB, 'empty');
  const empty = emptyServer.setup;
  console.log(`empty database ${EMPTY_DB}: ${Object.entries(empty.counts).map(([k, v]) => `${k} ${v.toLocaleString('en')}`).join(', ')}`);

  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const now = Date.now();
  const from = new Date(now - 7 * 86_400_000).toISOString();
  const to = new Date(now).toISOString();
  const q = (s) => encodeURIComponent(s);
  /** Each route: how to ask it of a server (its setup), and what answer is right. */
  const routes = [
    { name: 'poll GET /notifications (If-None-Match)', kind: 'customer', path: () => '/api/v1/notifications', etag: true, expect: 304 },
    { name: 'poll GET /pending-crypto-payment-active', kind: 'customer', path: () => '/api/v1/pending-crypto-payment-active', etag: true, expect: [200, 204, 304, 404] },
    { name: 'GET /modems', kind: 'customer', path: () => '/api/v1/modems' },
    { name: 'GET /account', kind: 'customer', path: () => '/api/v1/account' },
    { name: 'GET /notifications (full list)', kind: 'customer', path: () => '/api/v1/notifications' },
    { name: 'GET /traffic (7 days, hourly)', kind: 'customer', path: () => `/api/v1/traffic?from=${q(from)}&to=${q(to)}` },
    { name: 'GET /invoices', kind: 'customer', path: () => '/api/v1/invoices' },
    { name: 'GET /dashboard', kind: 'customer', path: () => '/api/v1/dashboard' },
    { name: 'GET /catalog/offers (Add Proxies)', kind: 'customer', path: () => '/api/v1/catalog/offers' },
    { name: 'GET /modems/count/:country (Add Proxies)', kind: 'customer', path: (s) => `/api/v1/modems/count/${s.buyBody.country_id}?isShared=false` },
    { name: 'POST /payment/balance/buy (1 port)', kind: 'customer', method: 'POST', body: (s) => JSON.stringify(s.buyBody), path: () => '/api/v1/payment/balance/buy' },
    { name: 'admin customers, first page', kind: 'admin', search: true, path: () => '/api/v1/admin/customers' },
    { name: 'admin customers ?q=<e-mail part>', kind: 'admin', search: true, path: (s) => `/api/v1/admin/customers?q=${q(s.email.slice(0, 17))}` },
    { name: 'admin customer detail (ports, ledger)', kind: 'admin', search: true, path: (s) => `/api/v1/admin/customers/${s.userId}` },
    { name: 'admin modems, first page', kind: 'admin', search: true, path: () => '/api/v1/admin/modems' },
    { name: 'admin modems ?q=<IMEI part>', kind: 'admin', search: true, path: (s) => `/api/v1/admin/modems?q=${q(s.imei.slice(-8))}` },
    { name: 'admin payments, first page', kind: 'admin', search: true, path: () => '/api/v1/admin/payments' },
    { name: 'admin payments ?q=<e-mail part>', kind: 'admin', search: true, path: (s) => `/api/v1/admin/payments?q=${q(s.email.slice(0, 17))}` },
    { name: 'admin payment detail', kind: 'admin', search: true, path: (s) => `/api/v1/admin/payments/${s.paymentId}` },
    { name: 'admin overview (30 days)', kind: 'admin', path: () => '/api/v1/admin/overview?days=30' },
  ].map((r, i) => ({ ...r, operator: i % (OPERATORS / OPERATORS_PER_ROUTE), asked: 0 })).filter((r) => !ONLY || ONLY.some((o) => r.name.includes(o)));

  const servers = { empty, scaled };
  const results = [];
  const loadBefore = load();
  const started = performance.now();
  for (const route of routes) {
    const latencies = { empty: [], scaled: [] };
    const errors = { empty: 0, scaled: 0 };
    const etags = {};
    for (const which of ['empty', 'scaled']) {
      // Warm-up: the route's statements prepared, its caches filled, its ETag known.
      for (let i = 0; i < WARM_UP_REQUESTS; i++) {
        const res = await ask(agent, servers[which], route);
        if (route.etag) etags[which] = res.etag;
      }
    }
    const block = Math.ceil(REQUESTS / 4);
    for (let round = 0; round < 4; round++) {
      for (const which of ['empty', 'scaled']) {
        const until = performance.now() + (ROUTE_SECONDS * 1000) / 4;
        for (let i = 0; i < block && performance.now() < until; i++) {
          const t0 = performance.now();
          const res = await ask(agent, servers[which], route, etags[which]);
          latencies[which].push(performance.now() - t0);
          const expect = [route.expect ?? 200].flat();
          if (!expect.includes(res.status)) {
            errors[which]++;
            if (errors[which] === 1) console.log(`  ${route.name} on ${which}: ${res.status} ${res.body.slice(0, 200)}`);
          }
        }
      }
    }
    const e = { ...stats(latencies.empty, errors.empty, 1), n: latencies.empty.length };
    const s = { ...stats(latencies.scaled, errors.scaled, 1), n: latencies.scaled.length };
    results.push({ route, e, s });
    expectAnswers(`${route.name}, empty database`, e);
    expectAnswers(`${route.name}, scaled database`, s);
  }
  const seconds = (performance.now() - started) / 1000;

  console.log(`\n${REQUESTS} requests per route and database (at most ${ROUTE_SECONDS} s), one at a time, in 4 alternating blocks (${seconds.toFixed(0)} s); load average ${loadBefore} before, ${load()} after`);
  console.log('| Route | empty p50 / p99 ms | scaled p50 / p99 ms | p99 ratio | requests (empty, scaled) | errors | target |');
  console.log('|---|---|---|---|---|---|---|');
  for (const { route, e, s } of results) {
    const ratio = s.p99 / e.p99;
    const ok = route.search ? s.p99 < SEARCH_TARGET_MS
      : ratio <= RATIO_TARGET || (route.kind === 'customer' && s.p99 <= CUSTOMER_MS_TARGET);
    const target = route.search ? `< ${SEARCH_TARGET_MS} ms` : route.kind === 'customer' ? `≤ ${RATIO_TARGET}× or ≤ ${CUSTOMER_MS_TARGET} ms` : `≤ ${RATIO_TARGET}×`;
    console.log(`| ${route.name} | ${e.p50.toFixed(1)} / ${e.p99.toFixed(1)} | ${s.p50.toFixed(1)} / ${s.p99.toFixed(1)} | ${ratio.toFixed(2)}× | ${e.n}, ${s.n} | ${e.errors + s.errors} | ${target} ${ok ? 'met' : '**missed**'} |`);
  }

  for (const server of [scaledServer, emptyServer]) {
    server.child.stdin.end();
    await new Promise((r) => server.child.on('exit', r));
  }
  agent.destroy();
}

async function dropDatabases(names) {
  const pg = (await import('pg')).default;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  for (const name of names) await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}

function startServer(dbName, mode) {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, '--serve', dbName, mode, ...process.argv.slice(2)], {
    stdio: ['pipe', 'pipe', 'inherit'], cwd: new URL('..', import.meta.url).pathname,
  });
  return new Promise((resolve, reject) => {
    let buf = '';
    const onData = (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) { child.stdout.off('data', onData); child.stdout.resume(); resolve({ child, setup: JSON.parse(buf.slice(0, nl)) }); }
    };
    child.stdout.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server on ${dbName} exited with ${code}`)));
  });
}

/** The next of the route's operator sessions, in turn (each operator's console reads are limited per minute). */
function nextOperatorCookie(setup, route) {
  const turn = route.asked++ % OPERATORS_PER_ROUTE;
  return setup.adminCookies[route.operator * OPERATORS_PER_ROUTE + turn];
}

/** One same-origin request as the measured customer or the operator. */
function ask(agent, setup, route, etag) {
  const body = route.body?.(setup);
  const port = setup.port;
  return new Promise((resolve) => {
    const req = http.request({
      host: '127.0.0.1', port, method: route.method ?? 'GET', path: route.path(setup), agent,
      headers: {
        cookie: route.kind === 'admin' ? nextOperatorCookie(setup, route) : setup.cookie, origin: `http://127.0.0.1:${port}`,
        ...(etag ? { 'if-none-match': etag } : {}),
        ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
      },
    }, (res) => {
      const chunks = [];
      res.on('data', (d) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode, etag: res.headers.etag, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', (err) => resolve({ status: 0, body: String(err) }));
    if (body) req.write(body);
    req.end();
  });
}
