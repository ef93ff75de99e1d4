import type { ColumnType, Generated } from 'kysely';
import type { LocalizedNames } from './catalog.js';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Json<T> = ColumnType<T, string | null, string | null>;

/** Every operator write: who, what, when, before and after (redacted: no hashes, secrets or tokens). */
export interface AuditLogTable {
  id: Generated<string>;
  admin_id: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  before: Json<unknown>;
  after: Json<unknown>;
  ip: Generated<string>;
  created_at: CreatedAt;
}

/** Operator-editable settings; a row overrides the configured value of the same meaning. */
export interface SettingsTable {
  key: string;
  value: ColumnType<unknown, string, string>;
  updated_by: string | null;
  updated_at: Generated<Date>;
}

export interface RotationIntervalsTable {
  minutes: number;
  labels: ColumnType<LocalizedNames | null, string | null | undefined, string | null>;
  active: Generated<boolean>;
  sort: Generated<number>;
}

export interface PaymentRefundsTable {
  id: Generated<string>;
  payment_id: string;
  amount: bigint;
  method: 'provider' | 'manual' | 'balance';
  provider_ref: string | null;
  reason: string;
  admin_id: string;
  created_at: CreatedAt;
}

export interface AdminTables {
  audit_log: AuditLogTable;
  settings: SettingsTable;
  rotation_intervals: RotationIntervalsTable;
  payment_refunds: PaymentRefundsTable;
}
