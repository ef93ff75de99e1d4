import { sql, type Kysely } from 'kysely';

// OS fingerprint presets (issue 30). A port's preset is its own choice (ports.fingerprint), else its modem's operator
// default, else its tariff's, else native; null at each level means "inherit". The host's capability, as its agent
// last reported it in a heartbeat (hosts.fingerprint: {supported, reason?, failing?}), is kept on the host so every
// instance's port lists show it; null until an agent that knows presets reports (an older agent cannot apply them).
// What the agent acts on must reach it within seconds, so each level announces on 'cellport_ports' as the rest does:
// ports (their statement trigger fires for any column), tariffs (any update announces '*'), and here modems' default
// and the host's capability, in triggers of their own so that no other migration's trigger is redefined.
export async function up(db: Kysely<unknown>): Promise<void> {
  const presets = sql.raw(`('native', 'windows', 'macos', 'ios', 'android')`);
  await sql`
    alter table ports add column fingerprint text check (fingerprint in ${presets});
    alter table modems add column fingerprint_default text check (fingerprint_default in ${presets});
    alter table tariffs add column fingerprint_default text check (fingerprint_default in ${presets});
    alter table hosts add column fingerprint jsonb;

    create trigger ports_list_modem_fingerprint after update of fingerprint_default on modems for each row
      when (old.fingerprint_default is distinct from new.fingerprint_default) execute function cellport_modem_changed();
    create trigger ports_list_hosts_fingerprint after update of fingerprint on hosts for each row
      when (old.fingerprint is distinct from new.fingerprint) execute function cellport_ports_catalog_changed();
  `.execute(db);
}
