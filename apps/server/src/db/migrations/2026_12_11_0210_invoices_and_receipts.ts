import { sql, type Kysely } from 'kysely';

// Invoices a bookkeeper can use (issue 27, item 3; docs/decisions/038-invoices-and-receipts.md):
// - a top-up is acknowledged by a receipt, numbered in its own gap-free series (receipt_counters, 'CP-R-2026-000001');
//   what the balance buys (purchases and renewals, whatever paid them) is invoiced. Documents issued before keep
//   their kind ('invoice') and number: nothing issued is renumbered or relabelled.
// - each document keeps the seller's legal details as the operator set them at issue (seller, null before: printed
//   with the settings of the moment), and the customer's company, address and VAT number in `customer`.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table invoices add column document text not null default 'invoice' check (document in ('invoice', 'receipt'));
    alter table invoices add column seller jsonb;
    create table receipt_counters (year integer primary key, last integer not null);
    alter table users add column billing_address text not null default '';
    alter table users add column vat_number text not null default '';
  `.execute(db);
}
