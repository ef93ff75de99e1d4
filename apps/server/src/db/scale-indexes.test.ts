import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.js';

// The console queries the scale suite found reading whole tables (issue 13, item 7; bench/scale.mjs and the EXPLAINs
// in bench/BENCHMARKS.md, "Scale"). At test size a scan is cheap, so the planner is told to avoid one
// (enable_seqscan off): each query must then find its index, on PostgreSQL and on PGlite (pg_trgm loaded there).
const someone = '00000000-0000-4000-8000-000000000001';
const cases: Array<{ what: string; query: string; indexes: string[] }> = [
  { what: 'the customers list, newest first', query: 'select id from users order by created_at desc, id limit 50', indexes: ['users_created'] },
  {
    what: 'the customer search (e-mail, name, company)',
    query: `select id from users where lower(email) like '%olga%' or lower(name) like '%olga%' or lower(company_name) like '%olga%'`,
    indexes: ['users_email_trgm', 'users_name_trgm', 'users_company_trgm'],
  },
  { what: "a customer's ports, released ones too", query: `select id from ports where user_id = '${someone}' order by created_at desc limit 100`, indexes: ['ports_user_all'] },
  { what: 'who uses each modem of a page', query: `select id from ports where modem_id in ('${someone}') and status <> 'released'`, indexes: ['ports_modem'] },
  {
    what: 'the modem search (IMEI, IP)',
    query: `select id from modems where lower(imei) like '%1234%' or lower(ext_ip) like '%1234%'`,
    indexes: ['modems_imei_trgm', 'modems_ext_ip_trgm'],
  },
  { what: 'the payments list, newest first', query: 'select id from payments order by created_at desc, id limit 50', indexes: ['payments_created'] },
  {
    what: 'the payment search (e-mail, description, coupon)',
    query: `select id from payments where user_id in (select id from users where lower(email) like '%olga%')
      union select id from payments where lower(description) like '%olga%' union select id from payments where lower(coupon) like '%olga%'`,
    indexes: ['users_email_trgm', 'payments_description_trgm', 'payments_coupon_trgm'],
  },
  {
    what: "an order's stock check, at most the ports it wants (catalog.repository.ts freeSlots with upTo, issue 31)",
    query: `select capacity - used_slots from modems where country_id = '${someone}' and is_shared = false and online
      and not retired and maintenance_since is null and used_slots < capacity order by country_id, is_shared, imei limit 3`,
    indexes: ['Index Scan using modems_free_stock'],
  },
  {
    what: "the start's check of stored whitelists, only the ports that have one (ports.repository.ts storedWhitelists)",
    query: `select id, modem_id, whitelist from ports where status <> 'released' and whitelist <> '[]'::jsonb order by modem_id, id`,
    indexes: ['ports_with_whitelist'],
  },
  {
    what: "the overview's ports expiring this week",
    query: `select count(*) from ports where status = 'active' and expires_at <= now() + interval '7 days'`,
    indexes: ['ports_active_expiry'],
  },
  {
    what: "the overview's customers, all and new in the period (decision 029)",
    query: `select count(*), count(*) filter (where created_at >= now() - interval '30 days') from users where role = 'customer'`,
    indexes: ['users_customers_created'],
  },
  {
    what: "the overview's refunds announced by a provider",
    query: `select reference from ledger_entries where kind = 'paypal_refund' and reference like 'paypal-refund:%'`,
    indexes: ['ledger_entries_provider_refunds'],
  },
];

describe('the console queries use their indexes (scale suite)', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp(); });
  afterAll(async () => { await t.close(); });

  const plan = (query: string) => t.ctx.db.transaction().execute(async (tx) => {
    await sql`set local enable_seqscan = off`.execute(tx);
    const { rows } = await sql.raw<{ 'QUERY PLAN': string }>(`explain ${query}`).execute(tx);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  });

  for (const c of cases) {
    it(c.what, async () => {
      const text = await plan(c.query);
      for (const index of c.indexes) expect(text, text).toContain(index);
    });
  }
});
