import { sql, type Kysely } from 'kysely';

// What the catalog tells a buyer (issue 27, item 8; docs/decisions/039-catalog-quality.md):
// - carriers.asn: the carrier's autonomous system number, set by the operator in the console (null: not told).
// - modem_quality: the rolling median of each modem's last speed tests, written by the instance that holds its
//   host's agent only when the median changes, so every instance's catalog reads the same numbers.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table carriers add column asn integer check (asn is null or (asn > 0 and asn < 4294967296))`.execute(db);
  await sql`
    create table modem_quality (
      modem_id uuid primary key references modems(id) on delete cascade,
      latency_ms integer not null check (latency_ms >= 0),
      down_kbps integer not null check (down_kbps >= 0),
      up_kbps integer not null check (up_kbps >= 0),
      udp boolean,
      samples integer not null check (samples > 0),
      measured_at timestamptz not null
    )
  `.execute(db);
}
