import { sql, type Kysely } from 'kysely';

// What each host's agent reports of the modems in its modems file (issue 15): the heartbeat's `inventory`, one row
// per host and IMEI, whether the server knows the modem or not. A modem that no row of `modems` has is "new on this
// host" in the console, where an operator adds it to the inventory; a known one shows its model, operator, signal
// and rotation figures from here. The heartbeat writes a row only when its report changed (changed_at) and removes
// the rows of modems the host no longer reports, in the same statement that records the host's contact.
// No trigger announces these rows: neither the customers' port lists nor the agents' desired states depend on them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table host_modem_reports (
      host_id uuid not null references hosts(id) on delete cascade,
      imei text not null,
      report jsonb not null,
      first_seen_at timestamptz not null default now(),
      changed_at timestamptz not null default now(),
      primary key (host_id, imei)
    );
    create index host_modem_reports_imei on host_modem_reports(imei);
  `.execute(db);
}
