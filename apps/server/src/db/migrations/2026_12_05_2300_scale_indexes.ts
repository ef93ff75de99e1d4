import { sql, type Kysely } from 'kysely';

// The indexes the scale suite called for (issue 13, item 7; bench/scale.mjs, the EXPLAINs are in bench/BENCHMARKS.md).
// With 100,000 customers, 300,000 ports and 1,000,000 ledger entries, each of these console queries read a whole table:
// - the customers list, newest first (users_created), and the payments list, newest first, which the overview's revenue
//   also reads by date (payments_created);
// - a customer's ports in the console, released ones included (ports_user covers only the unreleased);
// - who uses each modem on the modems page (ports_modem);
// - the overview's active ports and those expiring this week (ports_active_expiry);
// - the overview's revenue, net of the refunds the providers announced (ledger_entries_provider_refunds);
// - the operator's text searches (`lower(column) like '%text%'`): trigram indexes, when pg_trgm can be had. It ships
//   with PostgreSQL (contrib) and with PGlite (loaded in db/database.ts). A server without it, or a role that may not
//   create it, keeps the searches as they were (a scan), and the migration still runs.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index users_created on users (created_at desc, id);
    create index ports_user_all on ports (user_id, created_at);
    create index ports_modem on ports (modem_id) where status <> 'released';
    create index ports_active_expiry on ports (expires_at) where status = 'active';
    create index payments_created on payments (created_at desc, id);
    create index ledger_entries_provider_refunds on ledger_entries (kind, reference) where kind in ('paypal_refund', 'card_refund');
  `.execute(db);

  await sql`
    do $$ begin
      if exists (select 1 from pg_available_extensions where name = 'pg_trgm') then
        create extension if not exists pg_trgm;
      end if;
    exception when insufficient_privilege then
      raise notice 'pg_trgm not created (no privilege): the console searches run without trigram indexes';
    end $$;
  `.execute(db);
  const { rows } = await sql`select 1 from pg_extension where extname = 'pg_trgm'`.execute(db);
  if (!rows.length) return;
  await sql`
    create index users_email_trgm on users using gin (lower(email) gin_trgm_ops);
    create index users_name_trgm on users using gin (lower(name) gin_trgm_ops);
    create index users_company_trgm on users using gin (lower(company_name) gin_trgm_ops);
    create index modems_imei_trgm on modems using gin (lower(imei) gin_trgm_ops);
    create index modems_ext_ip_trgm on modems using gin (lower(ext_ip) gin_trgm_ops);
    create index payments_description_trgm on payments using gin (lower(description) gin_trgm_ops);
    create index payments_coupon_trgm on payments using gin (lower(coupon) gin_trgm_ops) where coupon is not null;
  `.execute(db);
}
