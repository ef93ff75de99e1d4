import { sql, type Kysely } from 'kysely';

// Money a customer is charged is whole cents (issue 27, item 2; decision 004): every purchase and renewal debit,
// computed once by packages/shared's roundToCent, is a multiple of 10,000 micro-USD. The ledger's amount column holds
// micro-units (a USDT deposit keeps every micro-unit it brought), so the rule is checked on the charges' kinds.
// NOT VALID: rows booked before this rule (a custom-days renewal charged $3.857143) stay as they were booked; every
// new row is checked.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table ledger_entries add constraint ledger_charges_whole_cents
      check (coin <> 'usdt' or kind not in ('purchase', 'renewal', 'auto-renewal') or amount % 10000 = 0) not valid
  `.execute(db);
}
