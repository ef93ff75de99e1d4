import type { ColumnType, Generated } from 'kysely';

/** One two-factor recovery code (migration 2026_12_11_0200): its HMAC only; used_at set when it was spent. */
export interface TwoFactorRecoveryCodesTable {
  id: Generated<string>;
  user_id: string;
  code_hash: string;
  used_at: Date | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}
export interface RecoveryCodesTables { two_factor_recovery_codes: TwoFactorRecoveryCodesTable }
