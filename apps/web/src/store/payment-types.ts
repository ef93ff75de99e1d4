// The payment entities the payments store slices hold. The API contract of issue 4 (server: h9) is mirrored
// here until packages/shared/src/schemas/payments.ts exists; then these become re-exports of the shared types.
import type { Coin } from '@cellport/shared/constants';
import type { LocalizedName } from '@cellport/shared/schemas/catalog';

export type PaymentKind = 'topup' | 'purchase' | 'renewal';
export type PendingStatus = 'pending' | 'completed' | 'cancelled' | 'expired';
/** port id → {periods} or {days}, with the port's name where the server adds it (spec §3 "Basket"). */
export type BasketMap = Record<string, { periods?: number; days?: number; modem_name?: string }>;

/** Spec §3 "Payment (crypto)", as POST /payment/crypto/pending and GET /pending-crypto-payment-active answer it. */
export interface CryptoPaymentView {
  _id: string;
  provider: 'crypto';
  kind: PaymentKind;
  status: PendingStatus;
  tariff_id: string | null;
  country_id: string | null;
  carrier_id: string | null;
  region_id: string | null;
  isShared: boolean | null;
  rotationInterval: number | null;
  basket: BasketMap | null;
  modemCount: number | null;
  coupon: string | null;
  coin: Coin;
  /** micro-USD */
  amount: string;
  data: {
    address: string;
    /** micro-USD */
    amount: string;
    /** satoshi, for btc */
    amountBTC?: string | null;
    coin: Coin;
    basket?: BasketMap | null;
    modemCount?: number | null;
  };
  country: { country_code: string } | null;
  tariffName: LocalizedName | null;
  countryName: string | null;
  modemNames: string[];
  expiresAt: string;
  createdAt: string;
}

/** One row of GET /pending-payments: any provider's pending payment. */
export interface PendingPaymentView {
  _id: string;
  provider: string;
  kind?: PaymentKind;
  status?: PendingStatus;
  amount: string;
  coin?: Coin | null;
  description?: string | null;
  tariffName?: LocalizedName | null;
  countryName?: string | null;
  modemNames?: string[];
  modemCount?: number | null;
  expiresAt?: string | null;
  createdAt: string;
}
