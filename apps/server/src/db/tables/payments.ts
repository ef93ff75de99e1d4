import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Json<T> = ColumnType<T, string, string>;
/** A server-made text as a key and its params, rendered in the reader's language (notifications/server-texts.ts). */
export interface StoredText { key: string; params?: Record<string, unknown> }
export type StoredTextColumn = ColumnType<StoredText | null, string | null | undefined, string | null>;

export interface PaymentAccountsTable {
  user_id: string;
  address_index: number;
  card_customer_id: string | null;
  created_at: CreatedAt;
}

/** What a payment order buys; the same fields the balance buy/renew endpoints take. */
export interface OrderDetails {
  tariff_id: string | null;
  country_id: string | null;
  carrier_id: string | null;
  region_id: string | null;
  isShared: boolean | null;
  rotationInterval: number | null;
  modemCount: number | null;
  basket: Record<string, { periods?: number; days?: number }> | null;
  coupon: string | null;
  /** A purchase of the tariff's paid trial (issue 27, item 8); absent on orders made before. */
  trial?: boolean | null;
  /** The BTC/USD rate a btc order was quoted at: its decimal, when it was fetched, and whether it is the sandbox's. */
  rate?: { usd: string; at: string; sandbox: boolean } | null;
}

export type OrderProvider = 'crypto' | 'card' | 'paypal';
export type OrderKind = 'topup' | 'purchase' | 'renewal';
export type OrderStatus = 'pending' | 'completed' | 'cancelled' | 'expired' | 'failed';

export interface PaymentOrdersTable {
  id: Generated<string>;
  user_id: string;
  provider: OrderProvider;
  kind: OrderKind;
  status: Generated<OrderStatus>;
  details: Json<OrderDetails>;
  /** Micro-USD. */
  amount: bigint;
  /** Cents (card, PayPal), satoshi (btc) or micro-USDT (usdt). */
  provider_amount: bigint;
  received: Generated<bigint>;
  coin: 'btc' | 'usdt' | null;
  address: string | null;
  description: string;
  description_text: StoredTextColumn;
  language: Generated<string>;
  external_id: string | null;
  fulfil_error: string | null;
  expires_at: Date | null;
  completed_at: Date | null;
  created_at: CreatedAt;
}

export type CardSubscriptionStatus = 'incomplete' | 'active' | 'past_due' | 'canceled';

/** A card subscription as the provider last reported it (migration 2026_12_11_0100). */
export interface CardSubscriptionsTable {
  id: string;
  user_id: string;
  order_id: string;
  status: Generated<CardSubscriptionStatus>;
  /** Micro-USD per period, whole cents. */
  amount: bigint | null;
  interval_days: Generated<number>;
  cancel_at_period_end: Generated<boolean>;
  current_period_end: Date | null;
  next_charge_at: Date | null;
  payment_method_id: string | null;
  card_brand: string | null;
  card_last4: string | null;
  last_failure: string | null;
  canceled_at: Date | null;
  synced_at: Date | null;
  created_at: CreatedAt;
}

export interface CardSubscriptionEventsTable { event_id: string; subscription_id: string; created_at: CreatedAt }

export interface InvoiceCountersTable { year: number; last: number }
/** The receipts' own series (migration 2026_12_11_0210): a top-up's receipt is not an invoice. */
export type ReceiptCountersTable = InvoiceCountersTable;
/** The seller's legal details as the operator set them when the document was issued. */
export interface InvoiceSeller { name?: string; address?: string; taxId?: string }

/** `text`, when there, is rendered in the reader's language; `description` is the buyer's language at the time. */
export interface InvoiceLineRow { description: string; quantity: number; unitAmount: string; amount: string; text?: StoredText }
export interface InvoiceCustomer { name: string; email: string; company_name: string; address?: string; vat_number?: string }

export interface InvoicesTable {
  id: Generated<string>;
  /** Null for the moment between the payment's commit and the numbering just after it (invoice-numbers.ts). */
  number: string | null;
  user_id: string;
  payment_id: string;
  provider: string;
  description: string;
  description_text: StoredTextColumn;
  amount: bigint;
  currency: Generated<string>;
  lines: Json<InvoiceLineRow[]>;
  customer: Json<InvoiceCustomer>;
  /** 'receipt' for a top-up, 'invoice' for what was bought (decision 038). */
  document: Generated<'invoice' | 'receipt'>;
  /** Null on documents issued before 2026_12_11_0210: printed with the seller's details of the moment. */
  seller: ColumnType<InvoiceSeller | null, string | null | undefined, string | null>;
  issued_at: Generated<Date>;
}

/** The sandbox card provider's saved cards (migration 2026_12_12_1610); what Stripe keeps for us with real keys. */
export interface SandboxPaymentMethodsTable {
  id: string;
  customer_id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  declines_charges: boolean;
  created_at: CreatedAt;
}

export interface PaymentsTables {
  payment_accounts: PaymentAccountsTable;
  payment_orders: PaymentOrdersTable;
  card_subscriptions: CardSubscriptionsTable;
  card_subscription_events: CardSubscriptionEventsTable;
  invoice_counters: InvoiceCountersTable;
  receipt_counters: ReceiptCountersTable;
  invoices: InvoicesTable;
  sandbox_payment_methods: SandboxPaymentMethodsTable;
}
