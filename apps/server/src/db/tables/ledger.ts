import type { ColumnType, Generated } from 'kysely';
import type { StoredTextColumn } from './payments.js';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
export type CoinColumn = 'btc' | 'usdt';

/** Kept equal to the sum of the user's ledger entries, updated in the same transaction. Never below zero. */
export interface BalancesTable { user_id: string; coin: CoinColumn; amount: Generated<bigint> }
export interface LedgerEntriesTable {
  id: Generated<string>;
  user_id: string;
  coin: CoinColumn;
  /** Signed minor units: credits positive, debits negative. */
  amount: bigint;
  kind: string;
  /** Unique: the same event can never be booked twice. */
  reference: string;
  payment_id: string | null;
  created_at: CreatedAt;
}
export interface PaymentsTable {
  id: Generated<string>;
  user_id: string;
  provider: string;
  kind: 'topup' | 'purchase' | 'renewal';
  status: string;
  amount: bigint;
  discount: Generated<bigint>;
  currency: Generated<string>;
  coupon_id: string | null;
  coupon: string | null;
  description: string;
  /** The description as a key and params, rendered in the reader's language; null: `description` is shown. */
  description_text: StoredTextColumn;
  modem_count: number;
  tariff_id: string | null;
  created_at: CreatedAt;
}
export interface PaymentPortsTable { payment_id: string; port_id: string }
export interface CouponsTable {
  id: Generated<string>;
  name: string;
  type: 'percent' | 'fixed';
  percent: number | null;
  amount: bigint | null;
  valid_from: Date | null;
  valid_until: Date | null;
  max_uses: number | null;
  max_uses_per_user: number | null;
  used_count: Generated<number>;
  tariff_id: string | null;
  country_id: string | null;
  created_at: CreatedAt;
}
export interface CouponRedemptionsTable {
  id: Generated<string>;
  coupon_id: string;
  user_id: string;
  payment_id: string;
  created_at: CreatedAt;
}
export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  request_hash: string;
  response: ColumnType<unknown, string | null, string | null>;
  created_at: CreatedAt;
}

export interface LedgerTables {
  balances: BalancesTable;
  ledger_entries: LedgerEntriesTable;
  payments: PaymentsTable;
  payment_ports: PaymentPortsTable;
  coupons: CouponsTable;
  coupon_redemptions: CouponRedemptionsTable;
  idempotency_keys: IdempotencyKeysTable;
}
