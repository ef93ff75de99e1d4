import { sql, type Kysely } from 'kysely';

// Issue 3: catalog (countries, carriers, regions, tariffs), stock (hosts, modems), customers' ports, the money ledger,
// payments from the balance, coupons, idempotency keys, durable jobs and notifications.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table countries (
      id uuid primary key default gen_random_uuid(),
      code text not null unique check (code ~ '^[A-Z]{2}$'),
      names jsonb not null,
      sort int not null default 0
    );
    create table carriers (
      id uuid primary key default gen_random_uuid(),
      country_id uuid not null references countries(id),
      name text not null,
      unique (country_id, name)
    );
    create table regions (
      id uuid primary key default gen_random_uuid(),
      country_id uuid not null references countries(id),
      carrier_id uuid references carriers(id),
      name text not null,
      unique (country_id, carrier_id, name)
    );
    create table tariffs (
      id uuid primary key default gen_random_uuid(),
      names jsonb not null,
      price bigint not null check (price > 0),
      period text not null check (period in ('day', 'week', 'month')),
      period_days int not null check (period_days in (1, 7, 30)),
      country_id uuid not null references countries(id),
      carrier_id uuid references carriers(id),
      region_id uuid references regions(id),
      is_shared boolean not null,
      rotation_interval int not null default 0 check (rotation_interval >= 0),
      recurring boolean not null default false,
      active boolean not null default true,
      sort int not null default 0,
      seed_key text unique
    );
    create index tariffs_country on tariffs(country_id) where active;

    create table hosts (
      id uuid primary key default gen_random_uuid(),
      name text not null unique,
      address text not null
    );
    -- A modem serves 'capacity' ports (1 for dedicated). used_slots is changed in the same transaction as the
    -- ports it counts, and sits on the locked row itself so a concurrent buyer re-checks it after the lock.
    create table modems (
      id uuid primary key default gen_random_uuid(),
      imei text not null unique,
      host_id uuid not null references hosts(id),
      http_port int not null,
      socks_port int not null,
      ext_ip text not null,
      apply_status text not null default 'idle' check (apply_status in ('idle', 'rotating', 'applying', 'failed')),
      online boolean not null default true,
      retired boolean not null default false,
      country_id uuid not null references countries(id),
      carrier_id uuid not null references carriers(id),
      region_id uuid references regions(id),
      is_shared boolean not null,
      capacity int not null default 1 check (capacity >= 1),
      used_slots int not null default 0 check (used_slots >= 0 and used_slots <= capacity),
      -- Shared modems rotate on one schedule for everyone on them; null for dedicated (the port chooses).
      rotation_interval int,
      last_rotated_at timestamptz,
      unique (host_id, http_port),
      unique (host_id, socks_port)
    );
    create index modems_stock on modems(country_id, is_shared, carrier_id, region_id) where online and not retired;

    -- A customer's access to a modem. 'released' ports no longer hold a slot and are hidden from the customer.
    create table ports (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id),
      modem_id uuid not null references modems(id),
      tariff_id uuid not null references tariffs(id),
      is_shared boolean not null,
      name text not null,
      proxy_login text not null,
      proxy_password text not null,
      whitelist jsonb not null default '[]',
      rotation_interval int not null default 0,
      -- The link token is HMAC(secret, id:nonce): shown to its owner, stored only as its sha256 for look-up.
      rotation_nonce text not null,
      rotation_token_hash text not null unique,
      status text not null default 'active' check (status in ('active', 'expired', 'released')),
      expires_at timestamptz not null,
      auto_renew boolean not null default false,
      last_rotated_at timestamptz,
      created_at timestamptz not null default now(),
      released_at timestamptz
    );
    create unique index ports_proxy_login on ports(lower(proxy_login)) where status <> 'released';
    create unique index ports_one_per_dedicated_modem on ports(modem_id) where status <> 'released' and not is_shared;
    create index ports_user on ports(user_id, created_at) where status <> 'released';

    create table balances (
      user_id uuid not null references users(id),
      coin text not null check (coin in ('btc', 'usdt')),
      amount bigint not null default 0 check (amount >= 0),
      primary key (user_id, coin)
    );
    create table ledger_entries (
      id bigserial primary key,
      user_id uuid not null references users(id),
      coin text not null check (coin in ('btc', 'usdt')),
      amount bigint not null check (amount <> 0),
      kind text not null,
      reference text not null unique,
      payment_id uuid,
      created_at timestamptz not null default now()
    );
    create index ledger_user on ledger_entries(user_id, created_at);

    create table coupons (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      type text not null check (type in ('percent', 'fixed')),
      percent int check (percent between 1 and 100),
      amount bigint check (amount > 0),
      valid_from timestamptz,
      valid_until timestamptz,
      max_uses int,
      max_uses_per_user int,
      used_count int not null default 0,
      tariff_id uuid references tariffs(id),
      country_id uuid references countries(id),
      created_at timestamptz not null default now(),
      check ((type = 'percent' and percent is not null) or (type = 'fixed' and amount is not null))
    );
    create unique index coupons_name on coupons(lower(name));

    create table payments (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id),
      provider text not null,
      kind text not null check (kind in ('purchase', 'renewal')),
      status text not null,
      amount bigint not null check (amount >= 0),
      discount bigint not null default 0,
      currency text not null default 'USD',
      coupon_id uuid references coupons(id),
      coupon text,
      description text not null,
      modem_count int not null,
      tariff_id uuid references tariffs(id),
      created_at timestamptz not null default now()
    );
    create index payments_user on payments(user_id, created_at desc);
    create table payment_ports (
      payment_id uuid not null references payments(id),
      port_id uuid not null references ports(id),
      primary key (payment_id, port_id)
    );
    create table coupon_redemptions (
      id bigserial primary key,
      coupon_id uuid not null references coupons(id),
      user_id uuid not null references users(id),
      payment_id uuid not null references payments(id),
      created_at timestamptz not null default now()
    );
    create index coupon_redemptions_user on coupon_redemptions(coupon_id, user_id);

    create table idempotency_keys (
      user_id uuid not null references users(id),
      key text not null,
      request_hash text not null,
      response jsonb,
      created_at timestamptz not null default now(),
      primary key (user_id, key)
    );

    create table jobs (
      id bigserial primary key,
      kind text not null,
      key text not null unique,
      payload jsonb not null default '{}',
      run_at timestamptz not null,
      attempts int not null default 0,
      last_error text,
      done_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index jobs_due on jobs(run_at) where done_at is null;

    create table notifications (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id),
      type text not null check (type in ('payment', 'other')),
      text_key text not null,
      params jsonb not null default '{}',
      text text not null,
      unread boolean not null default true,
      created_at timestamptz not null default now()
    );
    create index notifications_user on notifications(user_id, created_at desc);
  `.execute(db);
}
