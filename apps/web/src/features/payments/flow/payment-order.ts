import type { Coin } from '@cellport/shared/constants';
import type { BasketEntry, Tariff } from '@cellport/shared/schemas/catalog';

/**
 * What a payment pays for, whichever method pays it: a top-up of the balance, a purchase of new ports, or a
 * renewal of a basket of ports. `amount` is what the customer sees (micro-USD, after the coupon); for purchases
 * and renewals the server prices the order itself and answers with its own amount.
 */
export type PaymentOrder =
  | { kind: 'topup'; amount: bigint; coupon?: null }
  | {
      kind: 'purchase';
      amount: bigint;
      tariff: Tariff;
      country_id: string;
      carrier_id: string | null;
      region_id: string | null;
      isShared: boolean;
      rotationInterval: number;
      modemCount: number;
      coupon: string | null;
      /** The tariff's paid trial (issue 27, item 8): one port, no coupon. */
      trial?: boolean;
      /** For the product line: the country in the page language. */
      countryName: string;
    }
  | { kind: 'renewal'; amount: bigint; basket: Record<string, BasketEntry>; modemNames: string[]; coupon: string | null };

export type PaymentMethodId = 'card' | 'paypal' | 'crypto';

/** Which payment dialog is open: a card or PayPal payment of an order, or the crypto modal (new or the active one). */
export type OpenPayment =
  | { method: 'card'; order: PaymentOrder }
  | { method: 'paypal'; order: PaymentOrder }
  | { method: 'crypto'; order: PaymentOrder; coin: Coin }
  /** Reopens the active pending crypto payment (the shell's indicator). */
  | { method: 'crypto'; order: null };
