import { sql, type Kysely } from 'kysely';

// A purchase's listening-number check and the shared pool's allocation read a few index entries, whatever the
// planner believes (issue 31, item 3; decision 045).
// - `cellport_port_numbers_taken`: 2026_12_12_1870 asked the right question (the ports holding either number, then
//   their host) as one join, and the planner still drove it from the other side. In the quiet auto_explain run of
//   2026-12-06 21:55 (bench/BENCHMARKS.md) the check ran 1,730 times at 74 ms on average (up to 208 ms): it walked
//   the host's 10,015 modems and probed each one's ports, twice, because a SQL function's generic plan estimated 40
//   modems a host. That was most of a dedicated purchase (the app at 66 purchases/s against 449 for pgbench). Now
//   PL/pgSQL with one table per statement, so no join order to get wrong: the live ports holding either number (the
//   numbers' partial indexes), then whether their modems are in scope (primary key); the modems listening on either
//   number in scope (the unique (host, number) indexes), then whether one still serves ports without numbers of their
//   own (ports_without_own_numbers).
// - `cellport_free_port_numbers`: the lowest free pair was an anti-join on `n in (c, c + 1)`, which cannot be hashed,
//   so every candidate pair from 30000 was compared with every number in use: candidates × numbers under the farm's
//   advisory lock, for every shared purchase. Now each number in use names its pair (n with its lowest bit cleared),
//   and the candidates are hashed against those: one pass over the numbers in use.
// Same answers as before: port-numbers.test.ts and the replacement tests hold them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function cellport_port_numbers_taken(target_host uuid, numbers integer[], except_port uuid) returns boolean
    language plpgsql stable as $fn$
    declare
      scope uuid[];
      holders uuid[];
      listeners uuid[];
    begin
      -- Where a port on target_host is reached: the host, and the hosts behind its gateway (which listens for all).
      select array[target_host] || coalesce(array_agg(peer.id), '{}') into scope
        from hosts self join hosts peer on peer.gateway_id = self.gateway_id where self.id = target_host;
      -- Another live port holding either number, on a host in scope.
      select array_agg(modem_id) into holders from (
        select p.modem_id from ports p where p.status <> 'released' and p.http_port is not null and p.http_port = any(numbers)
          and p.id is distinct from except_port
        union all
        select p.modem_id from ports p where p.status <> 'released' and p.socks_port is not null and p.socks_port = any(numbers)
          and p.id is distinct from except_port
      ) held;
      if holders is not null and exists (select 1 from modems m where m.id = any(holders) and m.host_id = any(scope)) then
        return true;
      end if;
      -- A modem in scope that still listens on its own numbers: one with live ports that have none of their own.
      select array_agg(id) into listeners from (
        select m.id from modems m where m.host_id = any(scope) and m.http_port = any(numbers) and not m.retired
        union all
        select m.id from modems m where m.host_id = any(scope) and m.socks_port = any(numbers) and not m.retired
      ) listening;
      return listeners is not null and exists (
        select 1 from ports lp where lp.modem_id = any(listeners) and lp.status <> 'released' and lp.http_port is null
          and lp.id is distinct from except_port
      );
    end
    $fn$;

    create or replace function cellport_free_port_numbers() returns integer[]
    language plpgsql volatile as $fn$
    declare
      found integer;
    begin
      perform pg_advisory_xact_lock(hashtext('cellport:port-numbers'));
      -- A pair is (c, c + 1) with c even: a number in use takes the pair of its value with the lowest bit cleared.
      with used as (
        select http_port as n from modems union all select socks_port from modems
        union all select http_port from ports where status <> 'released' and http_port is not null
        union all select socks_port from ports where status <> 'released' and socks_port is not null
      ), taken as (
        select distinct n - n % 2 as pair from used where n >= 30000
      )
      select c into found from generate_series(30000, 65533, 2) c
      where not exists (select 1 from taken where taken.pair = c) order by c limit 1;
      if found is null then raise exception 'no free listening port numbers left' using errcode = 'P0001'; end if;
      return array[found, found + 1];
    end
    $fn$;
  `.execute(db);
}
