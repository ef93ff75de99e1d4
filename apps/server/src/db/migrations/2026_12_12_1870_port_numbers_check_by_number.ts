import { sql, type Kysely } from 'kysely';

// A purchase's number check reads by number, not by host (issue 31, item 3; decision 045). The check of 2026_12_12_1710
// joined every modem of the port's host (and of the hosts behind its gateway) to its ports and then looked for the two
// numbers: at 10,000 modems on a host that was 20,000 index probes inside every dedicated purchase, 20–40 ms with the
// advisory-free path, and purchases fell from 469/s to 108/s (bench/BENCHMARKS.md, 2026-12-06 18:51). The same question
// asked from the numbers' side is a few rows: the live ports holding either number (partial indexes on each column),
// then their modem's host. The legacy case (a modem still listening on its own numbers for shared ports without numbers
// of their own) gets a partial index of those ports, so it no longer scans the ports table either.
// Same answers as before; port-numbers.test.ts and the replacement tests hold them. Named 1870 (it landed as 1850, before
// 1830/1831, which Kysely's ordered migrations would refuse on a database that had run it): `if not exists` and
// `create or replace` let a database that ran it under its first name run it again.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index if not exists ports_without_own_numbers on ports (modem_id) where status <> 'released' and http_port is null;

    create or replace function cellport_port_numbers_taken(target_host uuid, numbers integer[], except_port uuid) returns boolean
    language sql stable as $fn$
      with scope as (
        select target_host as id
        union select peer.id from hosts self join hosts peer on peer.gateway_id = self.gateway_id where self.id = target_host
      )
      select exists (
        select 1 from ports p join modems m on m.id = p.modem_id
        where p.status <> 'released' and p.http_port is not null and p.http_port = any(numbers)
          and p.id is distinct from except_port and m.host_id in (select id from scope)
      ) or exists (
        select 1 from ports p join modems m on m.id = p.modem_id
        where p.status <> 'released' and p.socks_port is not null and p.socks_port = any(numbers)
          and p.id is distinct from except_port and m.host_id in (select id from scope)
      ) or exists (
        select 1 from modems m
        where m.host_id in (select id from scope) and not m.retired
          and (m.http_port = any(numbers) or m.socks_port = any(numbers))
          and exists (select 1 from ports lp where lp.modem_id = m.id and lp.status <> 'released' and lp.http_port is null
                        and lp.id is distinct from except_port)
      )
    $fn$;
  `.execute(db);
}
