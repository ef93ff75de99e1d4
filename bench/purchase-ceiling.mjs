// How many purchases per second PostgreSQL itself allows on this machine, with no Node and no HTTP: pgbench (a C
// client) replays a purchase's writes against our real schema, so the figures are a ceiling for
// POST /api/v1/payment/balance/buy, which bench/buying.mjs measures through the app.
//
//   node bench/purchase-ceiling.mjs     (needs PostgreSQL as bench/buying.mjs does, and pgbench, which Debian ships in
//                                        its postgresql server package)
//   BENCH_SECONDS=6 BENCH_CLIENTS=10,50 node bench/purchase-ceiling.mjs
//   BENCH_QUICK=1 node bench/purchase-ceiling.mjs    (quick mode: 2,000 modems, 4 clients, 1 s per script; fails when a
//                                                    script's transactions fail, e.g. a statement the schema no longer
//                                                    accepts)
//
// Three scripts, each one purchase of one dedicated port by one of 50 customers (client n buys as customer n % 50):
//   statements  the statements the app sends for it (BEGIN … COMMIT), as logged from one purchase on 2026-11-24
//               (notification and invoice texts shortened), prepared, one round trip each; since 2026-12-06 with the
//               payment and its invoice in one statement and the webhook event's insert, as the app sends them now
//               (apps/server/src/modules/purchases/purchase-round-trips.test.ts holds the app to that count); later on 2026-12-06
//               with what the app writes and reads since then: the port's default_number (migration 1831), the
//               stock's maintenance filter, the notification marked for its e-mail, the listing's gateway, own
//               numbers, tags, fingerprints and region names (the texts from the quiet auto_explain run of 2026-12-06);
//               since 2026-12-07 with the notification's e-mail written to the outbox in the notification's statement
//               (the app sent a claim and the outbox row after the commit before: two more commits the script left out)
//               and since 2026-12-07 (later) 8, as the app sends them now: the buyer's row returned by the payment's
//               statement (it was a select of its own); the ports, their jobs and links and the webhook event (an
//               insert of its own before) written in the notification's statement; the invoice with its document kind
//               and seller as the app writes it.
//               And since 2026-12-07 (later still) 6: the carrier's name joined to the tariff, the dedicated modem
//               taken in the payment's statement, the new ports listed by the notification's statement from its
//               new_ports CTE (the listing's round trip gone). Since 2026-12-08 a day port's term has 3 jobs, not 5
//               (no reminders "3 days" or "1 day" before the end of a 1-day term). Not in the script: the invoice numbering after the
//               commit, one statement (and commit) per batch of the purchases of 50 ms
//   function    the same writes inside one PL/pgSQL function: one round trip per purchase
//   minimal     one function with only debit, ledger entry, modem, payment, port and its link (no invoice, term
//               jobs, notification or NOTIFY): the floor of the data model
// Each run starts from the same state (purchases removed, stock back, VACUUM ANALYZE). Printed: transactions/s and the
// p50/p99 latency of each transaction from pgbench's per-transaction log.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { addDedicatedStock, databaseUrl } from './lib/bench-database.mjs';
import { QUICK, fault, knob } from './lib/quick.mjs';
import { cpuSeconds, localPostgresPid } from './lib/proxy-procs.mjs';

const SECONDS = knob('BENCH_SECONDS', 6, 1);
const CLIENTS = (process.env.BENCH_CLIENTS ?? (QUICK ? '4' : '10,50')).split(',').map(Number);
/** Free dedicated modems: more than the fastest script buys in a run (the stock is restored between runs). */
const STOCK = knob('BENCH_STOCK', 40_000, 2000);
const CUSTOMERS = 50;
const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

if (process.argv[2] === '--setup') await setup(process.argv[3]);
else await measure();

/** Child (through tsx, for the app's migrations and seed): a fresh database with stock, customers and the functions. */
async function setup(dbName) {
  const pg = (await import('pg')).default;
  const { loadConfig } = await import('../apps/server/src/config.ts');
  const { openDatabase } = await import('../apps/server/src/db/database.ts');
  const { migrateToLatest } = await import('../apps/server/src/db/migrate.ts');
  const { seedCatalog } = await import('../apps/server/src/db/seed/catalog.ts');
  const { LedgerRepository, LedgerService } = await import('../apps/server/src/modules/ledger/index.ts');
  const { sql } = await import('kysely');
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const database = await openDatabase({ databaseUrl: databaseUrl(BASE_URL, dbName), dataDir: '' });
  await migrateToLatest(database.db);
  // The app's own settings, as the other benches load them, so the seed gets every field it reads.
  const config = loadConfig({
    NODE_ENV: 'test', PORT: '0', CAPTCHA_PROVIDER: 'off', PUBLIC_URL: 'http://127.0.0.1', DATA_DIR: '/tmp/cellport-bench',
    LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent',
  });
  const log = { warn: (...args) => console.error(...args) };
  await seedCatalog({ db: database.db, config, log });
  await addDedicatedStock(database.db, STOCK);
  const ledger = new LedgerService(new LedgerRepository(database.db));
  await sql`create table bench_customers (n int primary key, id uuid not null)`.execute(database.db);
  for (let n = 0; n < CUSTOMERS; n++) {
    const id = randomUUID();
    await database.db.insertInto('users').values({ id, email: `ceiling-${n}@bench.local`, name: 'Bench', password_hash: 'x', is_verified: true }).execute();
    await database.db.transaction().execute((tx) => ledger.credit(tx, { userId: id, coin: 'usdt', amount: 10n ** 12n, kind: 'bench', reference: `bench:${id}` }));
    await sql`insert into bench_customers values (${n}, ${id})`.execute(database.db);
  }
  const tariff = await database.db.selectFrom('tariffs as t').innerJoin('countries as c', 'c.id', 't.country_id')
    .select(['t.id', 't.country_id']).where('c.code', '=', 'US').where('t.is_shared', '=', false).where('t.period', '=', 'day')
    .executeTakeFirstOrThrow();
  await sql.raw(functionSql('bench_purchase', tariff, true)).execute(database.db);
  await sql.raw(functionSql('bench_purchase_minimal', tariff, false)).execute(database.db);
  await database.close();
  process.stdout.write(`${JSON.stringify(tariff)}\n`);
}

async function measure() {
  const pgbench = findPgbench();
  if (!pgbench) {
    console.error('pgbench not found (Debian: apt-get install postgresql): nothing measured');
    process.exit(1);
  }
  const dbName = `cellport_ceiling_${process.pid}_${randomBytes(3).toString('hex')}`;
  const psqlPath = pgbench.replace(/pgbench$/, 'psql');
  try {
    await run(pgbench, psqlPath, dbName);
  } finally {
    const drop = spawnSync(psqlPath, [BASE_URL, '-q', '-c', `drop database if exists ${dbName} with (force)`], { encoding: 'utf8' });
    if (drop.status !== 0) console.error(drop.stderr);
  }
}

async function run(pgbench, psqlPath, dbName) {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, '--setup', dbName], {
    stdio: ['ignore', 'pipe', 'inherit'], cwd: new URL('..', import.meta.url).pathname,
  });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  const code = await new Promise((r) => child.on('exit', r));
  if (code !== 0) throw new Error(`setup exited with ${code}`);
  const tariff = JSON.parse(out.trim().split('\n').pop());
  const dir = mkdtempSync(join(tmpdir(), 'cellport-ceiling-'));
  const scripts = {
    statements: statementsScript(tariff),
    function: 'select * from bench_purchase(:client_id);\n',
    minimal: 'select * from bench_purchase_minimal(:client_id);\n',
  };
  const url = databaseUrl(BASE_URL, dbName);
  const postgres = localPostgresPid();
  const psql = (command) => spawnSync(psqlPath, [url, '-q', '-v', 'ON_ERROR_STOP=1', '-c', command], { encoding: 'utf8' });
  try {
    console.log(`\nPostgreSQL alone (pgbench, prepared), ${SECONDS} s per run, ${new Date().toISOString().slice(0, 10)}`);
    console.log('script       clients      tx/s    p50 ms   p99 ms   failed   CPU ms per transaction: PostgreSQL, pgbench');
    for (const clients of CLIENTS) {
      for (const [name, body] of Object.entries(scripts)) {
        for (const command of ['truncate payment_ports, jobs, notifications, invoices, ledger_entries, mail_outbox', 'delete from ports',
          'delete from payments', 'update modems set used_slots = 0 where used_slots > 0', 'vacuum analyze']) {
          const r = psql(command);
          if (r.status !== 0) throw new Error(`reset failed: ${r.stderr}`);
        }
        const file = join(dir, `${name}.sql`);
        writeFileSync(file, body);
        const prefix = join(dir, `log-${name}-${clients}`);
        const cpuBefore = { postgres: postgres ? cpuSeconds(postgres, true) : NaN, pgbench: cpuSeconds(process.pid) };
        const run = spawnSync(pgbench, ['-n', '-M', 'prepared', '-c', String(clients), '-j', String(Math.min(2, clients)), '-T', String(SECONDS),
          '-f', file, '--log', `--log-prefix=${prefix}`, url], { encoding: 'utf8' });
        // pgbench's CPU: what this process's waited-for children used meanwhile (cutime and cstime).
        const cpuAfter = { postgres: postgres ? cpuSeconds(postgres, true) : NaN, pgbench: cpuSeconds(process.pid) };
        const transactions = Number(/number of transactions actually processed: (\d+)/.exec(run.stdout)?.[1] ?? 0);
        const perTx = (k) => ((cpuAfter[k] - cpuBefore[k]) * 1000) / transactions;
        const tps = Number(/tps = ([\d.]+)/.exec(run.stdout)?.[1] ?? 0);
        const failed = Number(/number of failed transactions: (\d+)/.exec(run.stdout)?.[1] ?? 0) + (run.status === 0 ? 0 : 1);
        const latencies = readdirSync(dir).filter((f) => f.startsWith(`log-${name}-${clients}`))
          .flatMap((f) => readFileSync(join(dir, f), 'utf8').trim().split('\n').map((line) => Number(line.split(' ')[2]) / 1000))
          .sort((a, b) => a - b);
        const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? NaN;
        const ms = (v) => (Number.isFinite(v) ? v.toFixed(2) : '-').padStart(10);
        console.log(`${name.padEnd(12)} ${String(clients).padStart(7)}  ${tps.toFixed(0).padStart(8)}  ${at(0.5).toFixed(1).padStart(8)} ${at(0.99).toFixed(1).padStart(8)}   ${String(failed).padStart(6)}  ${ms(perTx('postgres'))} ${ms(perTx('pgbench'))}`);
        if (run.status !== 0) console.log(run.stderr.split('\n').slice(0, 3).join('\n'));
        if (run.status !== 0 || !(tps > 0)) fault(`${name} with ${clients} clients: pgbench exited with ${run.status}, ${tps} tx/s`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function findPgbench() {
  const onPath = spawnSync('sh', ['-c', 'command -v pgbench'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return onPath;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const found = readdirSync(root).sort().reverse().map((v) => join(root, v, 'bin', 'pgbench')).find((p) => existsSync(p));
  return found ?? null;
}

/** The app's statements for one purchase of one dedicated port, with pgbench variables for the per-run values. */
function statementsScript({ id: tariff, country_id: country }) {
  return `BEGIN;
select t.price, t.period, c.names as country_names, ca.name as carrier_name, gen_random_uuid() as pid, gen_random_uuid() as portid, gen_random_uuid() as noteid, (select id from bench_customers where n = :client_id % ${CUSTOMERS}) as uid from tariffs as t inner join countries as c on c.id = t.country_id left join carriers as ca on ca.id = coalesce(null::uuid, t.carrier_id) where t.id = '${tariff}' \\gset
with debited as (update balances set amount = amount - :price::bigint where user_id = :uid and coin = 'usdt' and amount >= :price::bigint returning user_id) insert into ledger_entries (user_id, coin, amount, kind, reference, payment_id) select user_id, 'usdt', -:price::bigint, 'purchase', 'payment:' || :pid::text, :pid::uuid from debited returning id;
with new_payment as (insert into payments (id, user_id, provider, kind, status, amount, discount, coupon_id, coupon, description, description_text, modem_count, tariff_id) values (:pid, :uid, 'balance', 'purchase', 'completed', :price, 0, null, null, '4G United States Dedicated · Day - 1x port', '{"key": "purchase"}', 1, '${tariff}') returning *), new_invoice as (insert into invoices (user_id, payment_id, provider, description, description_text, amount, lines, customer, document, seller) select p.user_id, p.id, p.provider, p.description, p.description_text, p.amount, '[{"amount": "4000000", "quantity": 1, "unitAmount": "4000000", "description": "Dedicated · Day (day)"}]'::jsonb, jsonb_build_object('name', u.name, 'email', u.email, 'company_name', u.company_name, 'address', u.billing_address, 'vat_number', u.vat_number), case when p.kind = 'topup' then 'receipt' else 'invoice' end, (select coalesce(jsonb_object_agg(case s.key when 'sellerName' then 'name' when 'sellerAddress' then 'address' else 'taxId' end, s.value), '{}'::jsonb) from settings s where s.key in ('sellerName', 'sellerAddress', 'sellerTaxId')) from new_payment p join users u on u.id = p.user_id where p.id = :pid on conflict (payment_id) do nothing), taken as (with picked as (select id, capacity, used_slots from modems where country_id = '${country}' and is_shared = false and online = true and retired = false and maintenance_since is null and used_slots < capacity order by imei limit 1 for update skip locked) update modems set used_slots = modems.used_slots + 1 from picked where modems.id = picked.id returning modems.id) select p.*, (select jsonb_build_object('language', u.language, 'marketing_consent', u.marketing_consent, 'email', u.email, 'name', u.name, 'is_active', u.is_active, 'port_count', (select count(*) from ports where ports.user_id = u.id)) from users u where u.id = p.user_id) as buyer, (select coalesce(jsonb_agg(taken.id), '[]'::jsonb) from taken) as taken from new_payment p \\gset
with note as (insert into notifications (id, user_id, type, text_key, params, text, email, created_at) values (:noteid, :uid, 'payment', 'purchase_completed', '{"amount": "4.00"}', 'Payment of $4.00 completed', 'sent', now())), mailed as (insert into mail_outbox (to_email, subject, text, html, notification_id) values ('ceiling@bench.local', 'Payment completed', repeat('t', 228), repeat('h', 1280), :noteid)), bumped as (insert into poll_versions (user_id, kind, version) values (:uid, 'notifications', 1) on conflict (user_id, kind) do update set version = poll_versions.version + 1 returning version), new_ports as (insert into ports (id, user_id, modem_id, tariff_id, is_shared, name, default_number, proxy_login, proxy_password, whitelist, rotation_interval, rotation_nonce, rotation_token_hash, expires_at) values (:portid, :uid, (:taken::jsonb->>0)::uuid, '${tariff}', false, 'Proxy 2', 2, 'l' || :portid::text, '8eZty8aWqNaDHd', '[]', 0, 'VnpqnSjfHmuZt1Fs', :portid::text, now() + interval '1 day') returning *), term_jobs as (insert into jobs (kind, key, run_at, payload) values ('port.autorenew', 'a:' || :portid::text, now() + interval '18 hours', '{}'), ('port.expire', 'e:' || :portid::text, now() + interval '1 day', '{}'), ('port.release', 'x:' || :portid::text, now() + interval '4 day', '{}') on conflict (key) do nothing), port_event as (insert into webhook_deliveries (endpoint_id, user_id, msg_id, event_type, payload) select e.id, e.user_id, 'msg_' || :pid::text, 'port.bought', '{"type": "port.bought"}'::jsonb from webhook_endpoints e where e.user_id = :uid and e.enabled and 'port.bought' = any(e.event_types) order by e.created_at), port_links as (insert into payment_ports (payment_id, port_id) select :pid::uuid, new_ports.id from new_ports), notified as (select pg_notify('cellport_poll', jsonb_set('{"kind": "notifications", "version": 0}'::jsonb, '{version}', to_jsonb(bumped.version))::text) as notified from bumped) select answer.* from notified left join (select p.id, p.name, p.default_number, p.status, p.proxy_login, p.proxy_password, p.whitelist, p.rotation_interval, p.rotation_nonce, p.expires_at, p.auto_renew, p.tariff_id, p.is_shared, p.last_rotated_at, p.suspended_at, p.tags, p.note, p.fingerprint, m.fingerprint_default, t.fingerprint_default, h.fingerprint, m.imei, m.apply_status, m.ext_ip, m.online, m.rotation_interval, coalesce(p.http_port, m.http_port), coalesce(p.socks_port, m.socks_port), p.rotation_due_at, m.rotation_due_at, coalesce(g.public_host, h.address), t.names, t.period, t.price, c.id, c.code, c.names, ca.id, ca.name, r.id, r.name, r.name_ru, r.name_cn from new_ports as p inner join modems as m on m.id = p.modem_id inner join hosts as h on h.id = m.host_id left join gateways as g on g.id = h.gateway_id inner join tariffs as t on t.id = p.tariff_id inner join countries as c on c.id = m.country_id inner join carriers as ca on ca.id = m.carrier_id left join regions as r on r.id = m.region_id where p.user_id = :uid and p.status <> 'released') as answer on true;
COMMIT;
`;
}

/** The same writes as one function (`full`), or only the ledger, stock, payment and port (`!full`). */
function functionSql(name, { id: tariff, country_id: country }, full) {
  return `create function ${name}(client int) returns table (port_id uuid, port_name text, imei text, ext_ip text, host text)
language plpgsql as $fn$
declare pid uuid := gen_random_uuid(); portid uuid := gen_random_uuid(); noteid uuid := gen_random_uuid(); uid uuid; mid uuid; price bigint; booked bigint; owned bigint;
begin
  select bc.id into uid from bench_customers bc where bc.n = client % ${CUSTOMERS};
  select t.price into price from tariffs t join countries c on c.id = t.country_id where t.id = '${tariff}';
  with debited as (update balances b set amount = b.amount - price where b.user_id = uid and b.coin = 'usdt' and b.amount >= price returning b.user_id)
    insert into ledger_entries (user_id, coin, amount, kind, reference, payment_id) select d.user_id, 'usdt', -price, 'purchase', 'payment:' || pid, pid from debited d returning id into booked;
  if booked is null then raise exception 'INSUFFICIENT_FUNDS'; end if;
  with picked as (select m.id from modems m where m.country_id = '${country}' and not m.is_shared and m.online and not m.retired and m.maintenance_since is null and m.used_slots < m.capacity order by m.imei limit 1 for update skip locked)
    update modems set used_slots = modems.used_slots + 1 from picked where modems.id = picked.id returning modems.id into mid;
  if mid is null then raise exception 'OUT_OF_STOCK'; end if;
  select count(*) into owned from ports p where p.user_id = uid;
  insert into payments (id, user_id, provider, kind, status, amount, discount, description, modem_count, tariff_id)
    values (pid, uid, 'balance', 'purchase', 'completed', price, 0, '4G United States Dedicated · Day - 1x port', 1, '${tariff}');
  ${full ? `insert into invoices (user_id, payment_id, provider, description, amount, lines, customer, document, seller)
    select p.user_id, p.id, p.provider, p.description, p.amount, '[{"amount": "4000000", "quantity": 1}]'::jsonb,
      jsonb_build_object('name', u.name, 'email', u.email, 'company_name', u.company_name, 'address', u.billing_address, 'vat_number', u.vat_number),
      case when p.kind = 'topup' then 'receipt' else 'invoice' end,
      (select coalesce(jsonb_object_agg(s.key, s.value), '{}'::jsonb) from settings s where s.key in ('sellerName', 'sellerAddress', 'sellerTaxId'))
    from payments p join users u on u.id = p.user_id where p.id = pid;` : ''}
  insert into ports (id, user_id, modem_id, tariff_id, is_shared, name, default_number, proxy_login, proxy_password, whitelist, rotation_interval, rotation_nonce, rotation_token_hash, expires_at)
    values (portid, uid, mid, '${tariff}', false, 'Proxy ' || (owned + 1), owned + 1, 'l' || portid, '8eZty8aWqNaDHd', '[]', 0, 'VnpqnSjfHmuZt1Fs', portid::text, now() + interval '1 day');
  ${full ? `insert into jobs (kind, key, run_at, payload) values ('port.autorenew', 'a:' || portid, now() + interval '18 hours', '{}'),
    ('port.expire', 'e:' || portid, now() + interval '1 day', '{}'), ('port.release', 'x:' || portid, now() + interval '4 day', '{}');` : ''}
  insert into payment_ports (payment_id, port_id) values (pid, portid);
  ${full ? `insert into notifications (id, user_id, type, text_key, params, text, email, created_at)
    values (noteid, uid, 'payment', 'purchase_completed', '{"amount": "4.00"}', 'Payment of $4.00 completed', 'sent', now());
  insert into mail_outbox (to_email, subject, text, html, notification_id) values ('ceiling@bench.local', 'Payment completed', repeat('t', 228), repeat('h', 1280), noteid);
  insert into poll_versions (user_id, kind, version) values (uid, 'notifications', 1)
    on conflict (user_id, kind) do update set version = poll_versions.version + 1;
  perform pg_notify('cellport_poll', '{"kind": "notifications"}');
  insert into webhook_deliveries (endpoint_id, user_id, msg_id, event_type, payload) select e.id, e.user_id, 'msg_' || pid, 'port.bought', '{"type": "port.bought"}'::jsonb
    from webhook_endpoints e where e.user_id = uid and e.enabled and 'port.bought' = any(e.event_types) order by e.created_at;` : ''}
  return query select p.id, p.name, m.imei, m.ext_ip, h.address from ports p join modems m on m.id = p.modem_id join hosts h on h.id = m.host_id
    join tariffs t on t.id = p.tariff_id join countries c on c.id = m.country_id join carriers ca on ca.id = m.carrier_id
    left join regions r on r.id = m.region_id where p.id = portid;
end $fn$;`;
}
