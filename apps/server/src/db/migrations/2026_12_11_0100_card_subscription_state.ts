import { sql, type Kysely } from 'kysely';

// Card subscriptions a customer can see and manage (issue 27, item 1). The row already knew its order and a status;
// it now keeps what the customer is shown and what the jobs act on, as the card provider last reported it: the
// amount per period (micro-USD, whole cents), the period's length and end, Stripe's cancel_at_period_end, the next
// charge (a retry while past_due), the card it charges and why its last charge failed. Statuses are Stripe's:
// incomplete, active, past_due, canceled. Every event about a subscription makes us read it from the provider anew
// (`synced_at`: when), so a late or repeated webhook never puts back an older state. card_subscription_events keeps the ids of the events that told the
// customer something, so a redelivery tells them nothing twice.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table card_subscriptions
      add column amount bigint,
      add column interval_days int not null default 30,
      add column cancel_at_period_end boolean not null default false,
      add column current_period_end timestamptz,
      add column next_charge_at timestamptz,
      add column payment_method_id text,
      add column card_brand text,
      add column card_last4 text,
      add column last_failure text,
      add column canceled_at timestamptz,
      add column synced_at timestamptz,
      add constraint card_subscriptions_status check (status in ('incomplete', 'active', 'past_due', 'canceled')),
      add constraint card_subscriptions_whole_cents check (amount is null or (amount > 0 and amount % 10000 = 0));

    update card_subscriptions s set amount = o.provider_amount * 10000
      from payment_orders o where o.id = s.order_id;

    create index card_subscriptions_user on card_subscriptions (user_id, created_at desc);

    -- The provider's events about a subscription that told the customer something (a failed charge): each is told
    -- once, however often Stripe delivers it.
    create table card_subscription_events (
      event_id text primary key,
      subscription_id text not null references card_subscriptions(id),
      created_at timestamptz not null default now()
    );

    -- Chats linked before these kinds existed get the two a customer must not miss (TELEGRAM_DEFAULT_KINDS).
    update telegram_links set kinds = kinds || '["subscription_charge_failed", "subscription_ended"]'::jsonb
      where not kinds ? 'subscription_charge_failed';
  `.execute(db);
}
