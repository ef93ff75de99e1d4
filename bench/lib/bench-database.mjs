// Fresh PostgreSQL databases for the benches that need one (buying.mjs, purchase-ceiling.mjs).
import { sql } from 'kysely';

/** The URL of database `name` on the server `baseUrl` points at. */
export function databaseUrl(baseUrl, name) {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * `count` free dedicated modems in the US on the first US host, after the demo catalog is seeded. IMEIs start with B
 * so they never meet the seed's; HTTP and SOCKS ports are each unique per host, so both count from 40001.
 */
export async function addDedicatedStock(db, count) {
  await sql`
    insert into modems (imei, host_id, http_port, socks_port, ext_ip, country_id, carrier_id, is_shared, capacity)
    select 'B' || lpad(g::text, 14, '0'), h.id, 40000 + g, 40000 + g, '198.51.100.' || (g % 250 + 1), c.id, ca.id, false, 1
    from generate_series(1, ${count}::int) g
    cross join (select id from hosts where name like 'us%' limit 1) h
    cross join (select id from countries where code = 'US') c
    cross join (select id from carriers where name = 'T-Mobile') ca
  `.execute(db);
}
