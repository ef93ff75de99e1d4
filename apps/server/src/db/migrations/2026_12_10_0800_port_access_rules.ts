import { sql, type Kysely } from 'kysely';

// Ports shared fairly and safely (issue 26 items 5 and 6, issue 27 item 4).
// - proxy_login_prefixes: each account's own prefix of the proxy logins its customer chooses (decision 035), made on
//   first use. Logins already stored keep working as they are.
// - Whitelist entries the new rules refuse (wider than an IPv4 /16 or an IPv6 /48, or a range no customer connects
//   from: private, loopback, link-local, CGNAT, multicast, reserved, mapped or translated IPv6) are removed: a
//   whole-internet entry made an open proxy, and the others only match connections from inside the operator's own
//   network. The list is the one of packages/shared/src/schemas/whitelist-ranges.ts at the time of writing. Overlaps
//   between ports of one modem need a person to resolve: the server reports them at start (whitelist-conflicts.ts).
// - The Your Proxies list shows a shared port's next scheduled rotation (modems.rotation_due_at): the modem trigger
//   that drops kept lists now also fires when it moves.
export async function up(db: Kysely<unknown>): Promise<void> {
  await removeRefusedWhitelistEntries(db);
  await sql`
    create table proxy_login_prefixes (
      user_id uuid primary key references users(id) on delete cascade,
      prefix text not null unique
    );

    drop trigger ports_list_modem on modems;
    create trigger ports_list_modem after update on modems for each row
      when ((
        old.imei, old.host_id, old.http_port, old.socks_port, old.ext_ip, old.apply_status, old.online,
        old.country_id, old.carrier_id, old.region_id, old.rotation_interval, old.rotation_due_at
      ) is distinct from (
        new.imei, new.host_id, new.http_port, new.socks_port, new.ext_ip, new.apply_status, new.online,
        new.country_id, new.carrier_id, new.region_id, new.rotation_interval, new.rotation_due_at
      ))
      execute function cellport_modem_changed();
  `.execute(db);
}

/** Removes the whitelist entries the rules of issue 26 refuse from every port (exported for its test). */
export async function removeRefusedWhitelistEntries(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- An entry the database cannot read stays (the agent skips it and says so); the migration never fails on one.
    create function cellport_refused_whitelist_entry(entry text) returns boolean language plpgsql immutable as $$
    begin
      return masklen(entry::inet) < case family(entry::inet) when 4 then 16 else 48 end
        or entry::inet && any (array[
          '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12',
          '192.0.0.0/24', '192.168.0.0/16', '198.18.0.0/15', '224.0.0.0/4', '240.0.0.0/4',
          '::/127', '::ffff:0:0/96', '64:ff9b::/96', '64:ff9b:1::/48', '100::/64', '2002::/16', 'fc00::/7',
          'fe80::/10', 'ff00::/8'
        ]::inet[]);
    exception when others then
      return false;
    end $$;
    update ports set whitelist = (
      select coalesce(jsonb_agg(e.value order by e.ordinality), '[]'::jsonb)
      from jsonb_array_elements_text(ports.whitelist) with ordinality as e(value, ordinality)
      where not cellport_refused_whitelist_entry(e.value)
    )
    where exists (select 1 from jsonb_array_elements_text(ports.whitelist) as e(value) where cellport_refused_whitelist_entry(e.value));
    drop function cellport_refused_whitelist_entry(text);
  `.execute(db);
}
