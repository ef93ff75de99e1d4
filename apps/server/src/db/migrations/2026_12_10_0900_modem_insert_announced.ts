import { sql, type Kysely } from 'kysely';

// A modem adopted in the console is a new row, and the modems trigger of 2026_11_30_1000_ports_list_changes fires on
// update only: nothing was announced, so the host's agent heard of the modem (and opened its ports) only at its
// first sale, although the console says it serves within seconds (issue 28, item 4). A new modem is announced as
// an updated one is ('m:' and its IMEI): each connected agent's state is recomputed and the new one sent.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function cellport_modem_added() returns trigger language plpgsql as $$
    begin
      perform pg_notify('cellport_ports', 'm:' || new.imei);
      return null;
    end $$;
    create trigger ports_list_modem_insert after insert on modems for each row
      execute function cellport_modem_added();
  `.execute(db);
}
