import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface PollVersionsTable { user_id: string; kind: string; version: Generated<bigint> }

export interface ApiKeysTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  /** The first characters of the key, shown so a person can tell keys apart. */
  prefix: string;
  /** sha256 of the key; the key itself is shown once and never stored. */
  key_hash: string;
  created_at: CreatedAt;
  last_used_at: Date | null;
  revoked_at: Date | null;
  /** 'read' (GET only), 'manage' (no spending) or 'full'. */
  scope: ColumnType<'read' | 'manage' | 'full', 'read' | 'manage' | 'full' | undefined, never>;
  /** On a 'full' key: the most it may spend per calendar month (UTC), micro-USD; null: no cap. */
  monthly_spend_limit: ColumnType<bigint | null, bigint | null | undefined, never>;
}

/** One payment an API key made (its monthly cap is checked against these). */
export interface ApiKeySpendsTable {
  payment_id: string;
  api_key_id: string;
  amount: ColumnType<bigint, bigint, never>;
  created_at: CreatedAt;
}

export interface TrafficSamplesTable {
  host_id: string;
  imei: string;
  interval_start: ColumnType<Date, Date | string, never>;
  modem_id: string;
  port_id: string | null;
  user_id: string | null;
  bytes_in: ColumnType<bigint, bigint | string, never>;
  bytes_out: ColumnType<bigint, bigint | string, never>;
  received_at: CreatedAt;
  /** The port for samples the agent reports per port; the zero uuid for the per-modem ingest. */
  port_key: Generated<string>;
}

/** Agent traffic reports already counted: a resent batch id adds nothing. */
export interface TrafficBatchesTable { host_id: string; batch_id: string; received_at: CreatedAt }

/** Each port's bytes (both directions) per calendar month (UTC), and when it was told of 80 % and 100 % of its quota. */
export interface PortTrafficMonthsTable {
  port_id: string;
  /** The month's first day. */
  month: ColumnType<Date, Date | string, never>;
  bytes: ColumnType<string, bigint | string, bigint | string>;
  warned_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  reached_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface LiveDashboardTables {
  poll_versions: PollVersionsTable;
  api_keys: ApiKeysTable;
  api_key_spends: ApiKeySpendsTable;
  traffic_samples: TrafficSamplesTable;
  traffic_batches: TrafficBatchesTable;
  port_traffic_months: PortTrafficMonthsTable;
}
