import { sql, type Kysely } from 'kysely';

// Invoices are numbered just after the payment's transaction commits, in batches (invoice-numbers.ts), instead of
// inside it: the per-year counter row was locked from the invoice to the commit of every purchase, so concurrent
// purchases of different customers queued on it one by one. Until numbered, an invoice's number is null; the
// partial index finds those few.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table invoices alter column number drop not null;
    create index invoices_unnumbered on invoices(issued_at, id) where number is null;
  `.execute(db);
}
