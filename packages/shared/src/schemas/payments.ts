import * as z from 'zod/mini';
import { text } from './text.js';
import { basketEntrySchema, CATALOG_LIMITS, CATALOG_MESSAGES, idSchema, localizedNameSchema, moneySchema } from './catalog.js';

// Money in (issue 4): top-ups and payments by crypto (BTC, USDT on TRON), card (Stripe or the offline sandbox) and
// PayPal; pending payments; invoices; public settings and the BTC rate. Server routes validate and serialize with
// these schemas and the web uses the same ones.
//
// Money: every amount in responses is a STRING of integer minor units (USD/USDT micro-units "50000000" = $50; BTC
// satoshi) EXCEPT at the provider boundaries the spec defines: the card `amount` a client SENDS is integer cents
// (spec §5), the crypto and PayPal `amount` a client SENDS is dollars as a decimal string ("50", "12.50").
// For a purchase or a renewal the server prices the order itself and ignores a client amount that disagrees.

export const PAYMENT_LIMITS = {
  /** Smallest custom top-up in dollars (spec §9). */
  topUpMinDollars: 1,
  /** Largest single payment in dollars; above this is a typo, not a top-up. */
  topUpMaxDollars: 100_000,
  /** Preset top-up amounts in dollars and the default (spec §2, §9). */
  presetDollars: [25, 50, 100, 250, 500] as const,
  defaultDollars: 50,
  /** A pending crypto payment is cancelled as expired after this many minutes without (enough) money. */
  cryptoPendingMinutes: 60,
  /** The web polls GET /pending-crypto-payment-active this often (spec §9). */
  pendingPollSeconds: 5,
} as const;

export const COINS = ['btc', 'usdt'] as const;
export type Coin = (typeof COINS)[number];
/** How a payment was paid; 'balance' = bought from the balance (issue 3). */
export const PAYMENT_PROVIDERS = ['crypto', 'card', 'paypal', 'balance'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];
/** 'topup' only credits the balance; 'purchase' buys new ports; 'renewal' extends ports (basket). */
export const PAYMENT_KINDS = ['topup', 'purchase', 'renewal'] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];
export const PAYMENT_STATUSES = ['pending', 'completed', 'cancelled', 'expired', 'failed'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

// ---- request building blocks --------------------------------------------------------------------------------------

const optionalId = z.optional(z.nullable(idSchema));
/** Dollars as a decimal string with at most 6 decimals ("50", "12.50"); a plain JSON number is accepted too. */
export const dollarAmountSchema = z.union([
  text().check(z.trim(), z.regex(/^\d{1,9}(\.\d{1,6})?$/, 'Enter an amount in dollars, for example 50 or 12.50')),
  z.number().check(z.positive(), z.maximum(PAYMENT_LIMITS.topUpMaxDollars)),
]);
/** Integer US cents (spec §5: dollars × 100); a digit string is accepted too. */
export const centsAmountSchema = z.union([
  z.number().check(z.int(), z.positive(), z.maximum(PAYMENT_LIMITS.topUpMaxDollars * 100)),
  text().check(z.regex(/^\d{1,9}$/)),
]);
const couponField = z.optional(z.nullable(text().check(z.trim(), z.maxLength(CATALOG_LIMITS.couponNameMax))));
export const paymentBasketSchema = z.record(idSchema, basketEntrySchema).check(
  z.refine((b) => {
    const n = Object.keys(b).length;
    return n >= 1 && n <= CATALOG_LIMITS.basketMax;
  }, { message: CATALOG_MESSAGES.basketSize }),
);
export type PaymentBasket = z.input<typeof paymentBasketSchema>;

/**
 * What is being paid for, shared by every method. Neither tariff_id nor basket → top-up of `amount`;
 * tariff_id (+ country_id, modemCount…) → purchase; basket → renewal.
 */
export const orderFields = {
  tariff_id: optionalId,
  country_id: optionalId,
  carrier_id: optionalId,
  region_id: optionalId,
  isShared: z.optional(z.nullable(z.boolean())),
  rotationInterval: z.optional(z.nullable(z.number().check(z.int(), z.minimum(0), z.maximum(1440)))),
  basket: z.optional(z.nullable(paymentBasketSchema)),
  coupon: couponField,
  /** A purchase of the tariff's paid trial (issue 27, item 8). */
  trial: z.optional(z.nullable(z.boolean())),
  modemCount: z.optional(z.nullable(z.number().check(
    z.int(CATALOG_MESSAGES.modemCount),
    z.minimum(CATALOG_LIMITS.modemCountMin, CATALOG_MESSAGES.modemCount),
    z.maximum(CATALOG_LIMITS.modemCountMax, CATALOG_MESSAGES.modemCount),
  ))),
};

// ---- crypto -------------------------------------------------------------------------------------------------------

/** POST /api/v1/payment/crypto/pending. `amount` (dollars) is required for a top-up, ignored for purchase/renewal. */
export const cryptoPendingRequestSchema = z.object({
  ...orderFields,
  amount: z.optional(z.nullable(dollarAmountSchema)),
  provider: z.optional(z.literal('crypto')),
  coin: z.enum(COINS),
});
export type CryptoPendingRequest = z.input<typeof cryptoPendingRequestSchema>;

export const cryptoPaymentDataSchema = z.object({
  /** The customer's own deposit address for the coin. */
  address: text(),
  /** Micro-USD (= micro-USDT). */
  amount: moneySchema,
  /** Satoshi to send, locked at creation (btc only; null for usdt). */
  amountBTC: z.nullable(moneySchema),
  coin: z.enum(COINS),
  basket: z.nullable(z.record(text(), z.unknown())),
  modemCount: z.nullable(z.number()),
  /**
   * The BTC/USD rate the amount was locked at (btc only): dollars per BTC, when our server fetched it, and whether
   * it is the sandbox's fixed rate. The modal shows its age when it is stale. Absent on payments made before.
   */
  rate: z.optional(z.nullable(z.object({ usd: text(), at: z.iso.datetime(), sandbox: z.boolean() }))),
});
export type CryptoPaymentData = z.infer<typeof cryptoPaymentDataSchema>;

/** Fields every pending/finished payment record carries (spec §3 Payment, extended with kind/status/dates). */
const paymentRecordFields = {
  _id: idSchema,
  kind: z.enum(PAYMENT_KINDS),
  status: z.enum(PAYMENT_STATUSES),
  tariff_id: z.nullable(idSchema),
  country_id: z.nullable(idSchema),
  carrier_id: z.nullable(idSchema),
  region_id: z.nullable(idSchema),
  isShared: z.nullable(z.boolean()),
  rotationInterval: z.nullable(z.number()),
  basket: z.nullable(z.record(text(), z.unknown())),
  modemCount: z.nullable(z.number()),
  coupon: z.nullable(text()),
  /** Micro-USD to pay (after any coupon discount). */
  amount: moneySchema,
  /** Micro-USD received so far (crypto may arrive in parts). */
  received: moneySchema,
  /** What the customer reads: 'Top-up', '4G Germany Standard - 2x port', 'Renewal for port-1, port-2'. */
  description: text(),
  country: z.nullable(z.object({ country_code: text() })),
  tariffName: z.nullable(localizedNameSchema),
  countryName: z.nullable(text()),
  /** Names of the ports a renewal extends (empty otherwise). */
  modemNames: z.array(text()),
  expiresAt: z.nullable(text()),
  createdAt: text(),
};

export const cryptoPaymentSchema = z.object({
  ...paymentRecordFields,
  provider: z.literal('crypto'),
  coin: z.enum(COINS),
  data: cryptoPaymentDataSchema,
});
export type CryptoPayment = z.infer<typeof cryptoPaymentSchema>;
export const cryptoPendingResponseSchema = z.object({ error: z.null(), data: cryptoPaymentSchema });
export type CryptoPendingResponse = z.infer<typeof cryptoPendingResponseSchema>;
/** GET /api/v1/pending-crypto-payment-active */
export const activeCryptoPaymentResponseSchema = z.object({ data: z.nullable(cryptoPaymentSchema) });
export type ActiveCryptoPaymentResponse = z.infer<typeof activeCryptoPaymentResponseSchema>;

// ---- pending payments (any method) --------------------------------------------------------------------------------

export const pendingPaymentSchema = z.object({
  ...paymentRecordFields,
  provider: z.enum(['crypto', 'card', 'paypal']),
  coin: z.nullable(z.enum(COINS)),
  /** Crypto only. */
  data: z.nullable(cryptoPaymentDataSchema),
});
export type PendingPayment = z.infer<typeof pendingPaymentSchema>;
/** GET /api/v1/pending-payments */
export const pendingPaymentsResponseSchema = z.object({ data: z.array(pendingPaymentSchema) });
export type PendingPaymentsResponse = z.infer<typeof pendingPaymentsResponseSchema>;
export const pendingPaymentParamsSchema = z.object({ id: idSchema });
/** DELETE /api/v1/pending-payments/:id */
export const cancelPendingResponseSchema = z.object({ error: z.null() });
/** POST /api/v1/pending-payments/:id/simulate (sandbox only): the completed payment. */
export const simulatePaymentResponseSchema = z.object({ error: z.null(), data: pendingPaymentSchema });
/**
 * GET /api/v1/payment/orders/:reference: one of the customer's payments in its current state, found by our id or by
 * the card provider's payment intent id (`pi_…`), which is what the browser holds after paying by card. The PayPal
 * return page and the payment banner read it, so neither claims "being confirmed" for money already credited.
 */
export const paymentOrderParamsSchema = z.object({ reference: text().check(z.regex(/^[A-Za-z0-9_-]{1,100}$/)) });
export const paymentOrderResponseSchema = z.object({ data: pendingPaymentSchema });
export type PaymentOrderResponse = z.infer<typeof paymentOrderResponseSchema>;

// ---- card (spec §7) -----------------------------------------------------------------------------------------------

/** POST /api/v1/payment/stripe/create-payment-intent and /buy-with-saved-card/:id. `amount` is cents. */
export const cardPaymentRequestSchema = z.object({
  ...orderFields,
  amount: z.optional(z.nullable(centsAmountSchema)),
  /** A single port to renew (same as a basket of that port for one period). */
  modem_id: optionalId,
});
export type CardPaymentRequest = z.input<typeof cardPaymentRequestSchema>;
export const createPaymentIntentResponseSchema = z.object({
  payment_intent: z.object({ id: text(), client_secret: text() }),
  email: text(),
  name: text(),
});
export type CreatePaymentIntentResponse = z.infer<typeof createPaymentIntentResponseSchema>;

/** POST /api/v1/payment/stripe/create-subscription (tariffs with period month and recurring only). */
export const createSubscriptionRequestSchema = cardPaymentRequestSchema;
export const createSubscriptionResponseSchema = z.object({
  clientSecret: z.nullable(text()),
  email: text(),
  /** A message when no subscription is possible for this choice; null on success. */
  error: z.nullable(text()),
});
export type CreateSubscriptionResponse = z.infer<typeof createSubscriptionResponseSchema>;

/** POST /api/v1/payment/stripe/setup-payment-intent */
export const setupIntentResponseSchema = z.object({ clientSecret: text() });
export const savedCardSchema = z.object({
  id: text(),
  brand: text(),
  last4: text(),
  expMonth: z.number(),
  expYear: z.number(),
});
export type SavedCard = z.infer<typeof savedCardSchema>;
/** GET /api/v1/payment/stripe/cards */
export const savedCardsResponseSchema = z.object({ data: z.array(savedCardSchema) });
export const savedCardParamsSchema = z.object({ id: text().check(z.minLength(1), z.maxLength(255)) });
/** POST /api/v1/payment/stripe/buy-with-saved-card/:id — the pending card payment; the webhook completes it. */
export const buyWithSavedCardResponseSchema = z.object({
  error: z.nullable(text()),
  data: z.object({ payment: pendingPaymentSchema }),
});
/** DELETE /api/v1/payment/stripe/:id */
export const removeCardResponseSchema = z.object({ error: z.null() });

/** POST /api/v1/payment/stripe/sandbox/confirm — the sandbox card form (no Stripe keys configured). */
export const sandboxConfirmRequestSchema = z.object({
  clientSecret: text().check(z.minLength(1), z.maxLength(300)),
  cardNumber: text().check(z.maxLength(40)),
  expiry: text().check(z.maxLength(10)),
  cvc: text().check(z.maxLength(8)),
});
export type SandboxConfirmRequest = z.input<typeof sandboxConfirmRequestSchema>;
export const sandboxConfirmResponseSchema = z.object({ status: z.literal('succeeded') });

// ---- PayPal -------------------------------------------------------------------------------------------------------

/** POST /api/v1/payment/paypal/pending. `amount` is dollars (required for a top-up). */
export const paypalPendingRequestSchema = z.object({
  ...orderFields,
  amount: z.optional(z.nullable(dollarAmountSchema)),
  description: z.optional(z.nullable(text().check(z.maxLength(200)))),
});
export type PaypalPendingRequest = z.input<typeof paypalPendingRequestSchema>;
export const paypalPendingResponseSchema = z.object({
  error: z.null(),
  data: z.object({
    _id: idSchema,
    /** Micro-USD. */
    amount: moneySchema,
    provider: z.literal('Paypal'),
    tariff_id: z.nullable(idSchema),
    country_id: z.nullable(idSchema),
    basket: z.nullable(z.record(text(), z.unknown())),
    description: text(),
    /** `paypal_<id>`; sent to PayPal as `custom`. */
    client_secret: text(),
    modemCount: z.nullable(z.number()),
  }),
  /** Post these fields to `action` as a hidden form (spec §7). */
  form: z.object({ action: text(), fields: z.record(text(), text()) }),
});
export type PaypalPendingResponse = z.infer<typeof paypalPendingResponseSchema>;

// ---- settings and rates -------------------------------------------------------------------------------------------

/** GET /api/v1/settings (public, loaded at start). */
export const settingsResponseSchema = z.object({
  PAYPAL_MODE: z.enum(['sandbox', 'live', 'off']),
  PAYPAL_RECEIVER_EMAIL: text(),
  card: z.object({ provider: z.enum(['stripe', 'sandbox', 'off']), publishableKey: z.nullable(text()) }),
  crypto: z.object({ mode: z.enum(['live', 'sandbox']) }),
  documentationUrl: z.nullable(text()),
  /** True only with sandbox providers outside production: the UI shows 'Simulate payment'. */
  simulatePayments: z.boolean(),
});
export type SettingsResponse = z.infer<typeof settingsResponseSchema>;

/** GET /api/v1/exchange-rates: USD per BTC as a decimal string ("97123.45"), null when no rate is known yet. */
export const exchangeRatesResponseSchema = z.object({ btc: z.nullable(text()) });
export type ExchangeRatesResponse = z.infer<typeof exchangeRatesResponseSchema>;

// ---- invoices -----------------------------------------------------------------------------------------------------

/** Signed micro-USD: a coupon discount is a line with a negative amount. */
const signedMoneySchema = text().check(z.regex(/^-?\d+$/));
export const invoiceLineSchema = z.object({
  description: text(),
  quantity: z.number(),
  /** Micro-USD per unit (negative for a discount line). */
  unitAmount: signedMoneySchema,
  amount: signedMoneySchema,
});
/**
 * What a document is (issue 27, item 3; decision 038): a top-up gets a 'receipt' (money received onto the balance, not
 * an invoice), what the balance or a payment bought gets an 'invoice'. Each has its own gap-free series.
 */
export const INVOICE_DOCUMENTS = ['invoice', 'receipt'] as const;
export const invoiceSchema = z.object({
  _id: idSchema,
  /** 'CP-2026-000123' for an invoice, 'CP-R-2026-000045' for a receipt: gap-free per year and kind. */
  number: text(),
  document: z.enum(INVOICE_DOCUMENTS),
  /** The seller's legal name, address and tax number, as printed. */
  seller: z.object({ name: text(), address: text(), taxId: text() }),
  paymentId: idSchema,
  issuedAt: text(),
  description: text(),
  provider: z.enum(PAYMENT_PROVIDERS),
  /** Micro-USD total. */
  amount: moneySchema,
  currency: z.literal('USD'),
  lines: z.array(invoiceLineSchema),
  /** The buyer as at issue: company, billing address and VAT number from the Account page ('' when not given). */
  customer: z.object({ name: text(), email: text(), company_name: text(), address: text(), vat_number: text() }),
});
export type Invoice = z.infer<typeof invoiceSchema>;
export type InvoiceLine = z.infer<typeof invoiceLineSchema>;
/** GET /api/v1/invoices */
export const invoicesResponseSchema = z.object({ data: z.array(invoiceSchema) });
/** GET /api/v1/invoices/:id.pdf */
export const invoicePdfParamsSchema = z.object({ id: idSchema });
/** GET /api/v1/invoices/:file: ':file' is '<uuid>.pdf' (the router cannot split a parameter at a dot; the route checks it). */
export const invoiceFileParamsSchema = z.object({ file: z.string().check(z.maxLength(60)) });
/** ?lng=en|ru|cn prints the invoice in that language; an unknown value is ignored. */
export const invoiceFileQuerySchema = z.object({ lng: z.optional(z.string().check(z.maxLength(10))) });

// ---- realtime (bus) -----------------------------------------------------------------------------------------------

/** Published when a payment completes: 'payment:completed' {userId, payment} and 'balance:changed' {userId}. */
export const PAYMENT_EVENTS = { completed: 'payment:completed', balanceChanged: 'balance:changed' } as const;

// ---- string math ---------------------------------------------------------------------------------------------------

/** "12.5" dollars → 12_500_000n micro-USD; null when not a plain decimal with ≤ 6 decimals. No floats. */
export function dollarsToMicro(value: string | number): bigint | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? value.toFixed(6) : '') : value.trim();
  const m = /^(\d{1,9})(?:\.(\d{1,6}))?$/.exec(text);
  if (!m) return null;
  return BigInt(m[1]!) * 1_000_000n + BigInt((m[2] ?? '').padEnd(6, '0'));
}

/** 12_500_000n micro-USD → "12.50" (2 decimals, truncated) for display. */
export function microToDollars(micro: bigint): string {
  const negative = micro < 0n;
  const abs = negative ? -micro : micro;
  const cents = abs / 10_000n;
  return `${negative ? '-' : ''}${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}
