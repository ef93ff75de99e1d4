import { sql, type Kysely } from 'kysely';

// Operator console (issue 6): the audit log of operator actions, operator-editable settings that override config,
// rotation-interval choices as rows (they were a constant), and refunds (one per payment).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table audit_log (
      id bigserial primary key,
      admin_id uuid references users(id),
      action text not null,
      target_type text not null,
      target_id text,
      before jsonb,
      after jsonb,
      ip text not null default '',
      created_at timestamptz not null default now()
    );
    create index audit_log_created on audit_log(created_at desc);
    create index audit_log_admin on audit_log(admin_id, created_at desc);
    create index audit_log_action on audit_log(action, created_at desc);
    create index audit_log_target on audit_log(target_type, target_id, created_at desc);

    create table settings (
      key text primary key,
      value jsonb not null,
      updated_by uuid references users(id),
      updated_at timestamptz not null default now()
    );

    create table rotation_intervals (
      minutes int primary key check (minutes between 0 and 1440),
      labels jsonb,
      active boolean not null default true,
      sort int not null default 0
    );
    insert into rotation_intervals (minutes, sort) values (0, 0), (5, 1), (10, 2), (15, 3), (30, 4), (60, 5);

    -- At most one refund per payment: the unique key makes a second (or concurrent) refund fail instead of paying twice.
    create table payment_refunds (
      id uuid primary key default gen_random_uuid(),
      payment_id uuid not null unique references payments(id),
      amount bigint not null check (amount > 0),
      method text not null check (method in ('provider', 'manual', 'balance')),
      provider_ref text,
      reason text not null,
      admin_id uuid not null references users(id),
      created_at timestamptz not null default now()
    );
  `.execute(db);
}
