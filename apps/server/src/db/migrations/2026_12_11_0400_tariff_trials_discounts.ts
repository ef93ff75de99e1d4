import { sql, type Kysely } from 'kysely';

// A tariff's paid trial and volume discounts (issue 27, item 8; decision 041). The trial is one port for
// `trial_hours` at `trial_price` (whole cents of micro-USD), once per customer: `trial_uses` has the customer as its
// key, so of two trial purchases by one customer in parallel the second waits on the first's row and then finds it
// (insert … on conflict do nothing returns nothing): only one can commit. The claim is the purchase's first write,
// before its payment row exists, hence the deferred payment reference. Volume discounts are steps of whole percents
// by quantity and by days, checked by the shared schema (packages/shared/src/schemas/pricing.ts) on every write.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table tariffs
      add column trial_hours integer,
      add column trial_price bigint,
      add column volume_discounts jsonb not null default '{"quantity": [], "days": []}'::jsonb,
      add constraint tariffs_trial_whole check (
        (trial_hours is null) = (trial_price is null)
        and (trial_hours is null or trial_hours between 1 and 72)
        and (trial_price is null or (trial_price > 0 and trial_price % 10000 = 0))
      );

    create table trial_uses (
      user_id uuid primary key references users(id) on delete cascade,
      tariff_id uuid not null references tariffs(id),
      payment_id uuid not null references payments(id) deferrable initially deferred,
      used_at timestamptz not null default now()
    );
  `.execute(db);
}
