import { sql, type Kysely } from 'kysely';

// The sandbox card provider's saved cards (issue 27, item 3): Stripe keeps a customer's cards for us; the sandbox kept
// them in the process's memory, so a restart lost every saved card and the card each subscription charges. Only
// what Stripe would show us is kept (brand, last four digits, expiry), never a card number; `declines_charges` marks
// the test card that saves fine and declines every charge (4000 0000 0000 0341). Unused with real Stripe.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sandbox_payment_methods (
      id text primary key,
      customer_id text not null,
      brand text not null,
      last4 text not null check (last4 ~ '^[0-9]{4}$'),
      exp_month int not null check (exp_month between 1 and 12),
      exp_year int not null check (exp_year between 2000 and 2200),
      declines_charges boolean not null default false,
      created_at timestamptz not null default clock_timestamp()
    );
    create index sandbox_payment_methods_customer on sandbox_payment_methods (customer_id, created_at desc);
  `.execute(db);
}
