// Fresh PostgreSQL databases for the benches that need one (buying.mjs, purchase-ceiling.mjs).
import { sql } from 'kysely';

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
