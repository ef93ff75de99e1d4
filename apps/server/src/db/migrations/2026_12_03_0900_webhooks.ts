import { sql, type Kysely } from 'kysely';

// Customer webhooks (issue 16): endpoints a customer registers, and one delivery row per event and endpoint.
// The signing secret is kept encrypted with a key derived from the server's secret (it must be read back to sign;
// the customer sees it once). Deliveries of one endpoint go out in `seq` order: only the oldest pending one is
// sent, so a failing delivery holds back the ones after it until it succeeds or is given up (the endpoint is then
// disabled). `leased_until` marks a delivery in flight: a crash mid-request leaves it due again once it passes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table webhook_endpoints (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      url text not null,
      event_types text[] not null,
      secret_enc text not null,
      enabled boolean not null default true,
      disabled_reason text,
      disabled_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index webhook_endpoints_user on webhook_endpoints(user_id, created_at);

    create table webhook_deliveries (
      id uuid primary key default gen_random_uuid(),
      seq bigserial not null,
      endpoint_id uuid not null references webhook_endpoints(id) on delete cascade,
      user_id uuid not null,
      msg_id text not null,
      event_type text not null,
      payload jsonb not null,
      status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
      attempts int not null default 0,
      next_attempt_at timestamptz not null default now(),
      leased_until timestamptz,
      last_attempt_at timestamptz,
      response_status int,
      latency_ms int,
      last_error text,
      created_at timestamptz not null default now()
    );
    create index webhook_deliveries_head on webhook_deliveries(endpoint_id, seq) where status = 'pending';
    create index webhook_deliveries_log on webhook_deliveries(endpoint_id, created_at desc);

    -- The last online state each modem was announced with, so that N instances hearing the same bus message
    -- publish modem.down / modem.up once (an upsert that changes the row is the one that publishes).
    create table webhook_modem_states (
      imei text primary key,
      online boolean not null
    );
    insert into webhook_modem_states (imei, online) select imei, online from modems on conflict (imei) do nothing;
  `.execute(db);
}
