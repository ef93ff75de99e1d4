// Fresh PostgreSQL databases for the benches that need one (buying, purchase-ceiling, scale, soak), their stock and customers.
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';

/** The URL of database `name` on the server `baseUrl` points at. */
export function databaseUrl(baseUrl, name) {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * `count` free dedicated modems in the US after the demo catalog is seeded. IMEIs start with B so they never meet
 * the seed's. A modem listens on two numbers of its own (HTTP, SOCKS5) and a dedicated port sold on it takes them
 * (decision 045), so no two modems of a host share a number in either column: 10,000 modems per host, on 40000–59999
 * (clear of the seed's), the first 10,000 on the first US host, the rest on hosts of their own.
 */
export async function addDedicatedStock(db, count) {
  await sql`
    with extra_hosts as (
      insert into hosts (name, address)
      select 'bench-stock-' || k || '.proxy.example', '10.254.' || k || '.1'
      from generate_series(1, (${count}::int - 1) / ${PER_HOST}::int) k
      returning id, name
    ), stock_hosts as (
      select 0 as k, id from (select id from hosts where name like 'us%' order by name limit 1) first_us
      union all
      select substring(name from 'bench-stock-([0-9]+)')::int, id from extra_hosts
    )
    insert into modems (imei, host_id, http_port, socks_port, ext_ip, country_id, carrier_id, is_shared, capacity)
    select 'B' || lpad(g::text, 14, '0'), h.id, 40000 + 2 * ((g - 1) % ${PER_HOST}::int), 40001 + 2 * ((g - 1) % ${PER_HOST}::int),
      '198.51.100.' || (g % 250 + 1), c.id, ca.id, false, 1
    from generate_series(1, ${count}::int) g
    join stock_hosts h on h.k = (g - 1) / ${PER_HOST}::int
    cross join (select id from countries where code = 'US') c
    cross join (select id from carriers where name = 'T-Mobile') ca
  `.execute(db);
}

/** Modems per host in the benches' stock: two listening numbers each from 40000 stay within 65535. */
const PER_HOST = 10_000;

/** What the benches buy: one port of the US dedicated day tariff (the body of POST /api/v1/payment/balance/buy). */
export async function usDayPurchase(db) {
  const us = await db.selectFrom('countries').select('id').where('code', '=', 'US').executeTakeFirstOrThrow();
  const tariff = await db.selectFrom('tariffs').select('id')
    .where('country_id', '=', us.id).where('is_shared', '=', false).where('period', '=', 'day').executeTakeFirstOrThrow();
  return { tariff_id: tariff.id, country_id: us.id, isShared: false, rotationInterval: 0, modemCount: 1 };
}

/**
 * A verified customer with a balance no bench spends (the app's own ledger credits it) and a signed-in session;
 * returns the session cookie.
 */
export async function fundedCustomer({ db, ledger, sessions }, label, i, ip = '127.0.0.1') {
  const id = randomUUID();
  await db.insertInto('users').values({ id, email: `${label}-${i}-${id}@bench.local`, name: 'Bench', password_hash: 'x', is_verified: true }).execute();
  await db.transaction().execute((tx) => ledger.credit(tx, { userId: id, coin: 'usdt', amount: 1_000_000n * 1_000_000n, kind: 'bench', reference: `bench:${id}` }));
  return `cp_session=${await sessions.create(id, { ip, headers: {} })}`;
}
