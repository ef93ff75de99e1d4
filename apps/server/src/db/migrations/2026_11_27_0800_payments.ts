import { sql, type Kysely } from 'kysely';

// Money in (issue 4): per-account deposit address indexes and card-provider customer ids, payment orders (pending
// crypto / card / PayPal payments until they complete), card subscriptions, and numbered invoices.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table payments drop constraint payments_kind_check;
    alter table payments add constraint payments_kind_check check (kind in ('topup', 'purchase', 'renewal'));

    -- Allocated once per account from the sequence: the BIP84 / TRON derivation index of its deposit addresses.
    create sequence payment_address_index_seq minvalue 0 start 0;
    create table payment_accounts (
      user_id uuid primary key references users(id) on delete cascade,
      address_index int not null unique,
      card_customer_id text,
      created_at timestamptz not null default now()
    );

    -- A payment the customer started with an outside provider. Its id becomes the id of the completed payments row.
    create table payment_orders (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id),
      provider text not null check (provider in ('crypto', 'card', 'paypal')),
      kind text not null check (kind in ('topup', 'purchase', 'renewal')),
      status text not null default 'pending' check (status in ('pending', 'completed', 'cancelled', 'expired', 'failed')),
      -- tariff_id, country_id, carrier_id, region_id, isShared, rotationInterval, modemCount, basket, coupon
      details jsonb not null,
      -- micro-USD the order costs (after the coupon); what completion credits at least
      amount bigint not null check (amount > 0),
      -- what the provider is asked for: cents for card/PayPal, satoshi for btc, micro-USDT for usdt
      provider_amount bigint not null check (provider_amount > 0),
      -- in provider units, credited towards this order so far (crypto may come in parts)
      received bigint not null default 0,
      coin text check (coin in ('btc', 'usdt')),
      address text,
      description text not null,
      language text not null default 'en',
      -- Stripe payment intent / subscription id
      external_id text unique,
      -- why a paid purchase/renewal could not be fulfilled (the money stays on the balance)
      fulfil_error text,
      expires_at timestamptz,
      completed_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index payment_orders_user on payment_orders(user_id, created_at desc);
    create unique index payment_orders_one_pending_crypto on payment_orders(user_id) where provider = 'crypto' and status = 'pending';
    create index payment_orders_pending_crypto on payment_orders(created_at) where provider = 'crypto' and status = 'pending';

    create table card_subscriptions (
      id text primary key,
      user_id uuid not null references users(id),
      order_id uuid not null references payment_orders(id),
      status text not null default 'incomplete',
      created_at timestamptz not null default now()
    );

    -- Gap-free numbering per year: the counter row is updated in the transaction that issues the invoice.
    create table invoice_counters (year int primary key, last int not null);
    create table invoices (
      id uuid primary key default gen_random_uuid(),
      number text not null unique,
      user_id uuid not null references users(id),
      payment_id uuid not null unique references payments(id),
      provider text not null,
      description text not null,
      amount bigint not null,
      currency text not null default 'USD',
      lines jsonb not null,
      customer jsonb not null,
      issued_at timestamptz not null default now()
    );
    create index invoices_user on invoices(user_id, issued_at desc);
  `.execute(db);
}
