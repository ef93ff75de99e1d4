import type { LocalizedValue, ServerText, TextParam } from '../notifications/index.js';

// The descriptions of payments and invoice lines as stored texts (a key and its params, notifications/server-texts.ts):
// rendered in the reader's language on the Purchases and Invoices pages and in the invoice PDF (issue 14, item 3).
// Keys: notifications.json `*_description`, invoice.json `lines.*` (as `invoice_line_*`).

/** `description` in the buyer's language now; `text`, when given, renders the line in each reader's language. */
export interface InvoiceLineInput { description: string; text?: ServerText; quantity: number; unitAmount: bigint; amount: bigint }
/** A coupon's discount, printed as its own negative line in the buyer's language. */
export interface InvoiceDiscount { amount: bigint; coupon: string | null; lng: string }

/** '4G United States Dedicated · Week - 1x port'. */
export const purchaseDescription = (country: LocalizedValue, tariff: LocalizedValue, count: number) =>
  ({ key: 'purchase_description', params: { country, tariff, count } }) satisfies ServerText;

/** 'Renewal for Proxy 1, Proxy 2' (a name the customer chose as typed, a default one in every language). */
export const renewalDescription = (names: TextParam) => ({ key: 'renewal_description', params: { names } }) satisfies ServerText;

export const topUpDescription = { key: 'topup_description' } satisfies ServerText;

/** 'Mobile proxy port, United States (AT&T): Dedicated · Week'. */
export const purchaseLineText = (tariff: LocalizedValue, country: LocalizedValue, carrier?: string | null): ServerText => ({
  key: 'invoice_line_purchase',
  params: { tariff, place: carrier ? { key: 'invoice_line_placeWithCarrier', params: { country, carrier } } : country },
});

/** 'Proxy 3: Dedicated · Week, 10 d'. */
export const renewalLineText = (port: TextParam, tariff: LocalizedValue, days: number): ServerText =>
  ({ key: 'invoice_line_renewal', params: { port, tariff, days } });

/** 'Coupon SPRING', or 'Discount' without a coupon name. */
export const discountLineText = (coupon: string | null | undefined): ServerText =>
  (coupon ? { key: 'invoice_line_coupon', params: { name: coupon } } : { key: 'invoice_line_discount' });
