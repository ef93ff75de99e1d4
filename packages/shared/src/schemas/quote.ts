import * as z from 'zod/mini';
import { idSchema, moneySchema } from './catalog.js';
import { orderFields } from './payments.js';

// POST /api/v1/payment/quote (issue 27, item 8): what a purchase costs before paying, line by line, priced by the
// same purchasePrice the balance purchase, every checkout, the ledger and the invoice use. Nothing is reserved.

export const quoteRequestSchema = z.object({ ...orderFields, tariff_id: idSchema });
export type QuoteRequest = z.input<typeof quoteRequestSchema>;

export const quoteResponseSchema = z.object({
  error: z.null(),
  data: z.object({
    /** The tariff's unit price × quantity, or the trial's price (micro-USD, whole cents). */
    subtotal: moneySchema,
    /** The volume step that applies (quantity and period steps added, at most 90). */
    volumePercent: z.number(),
    volumeDiscount: moneySchema,
    couponDiscount: moneySchema,
    /** What the purchase charges: the ledger debit, the invoice total and the card, PayPal or crypto amount. */
    total: moneySchema,
    currency: z.literal('USD'),
    trial: z.boolean(),
    /** Whether this customer may still buy a trial (once per customer). */
    trialAvailable: z.boolean(),
  }),
});
export type QuoteResponse = z.infer<typeof quoteResponseSchema>;

/** GET /api/v1/payment/trial: whether this customer has bought their one trial (once per customer, any tariff). */
export const trialStatusResponseSchema = z.object({ used: z.boolean() });
export type TrialStatusResponse = z.infer<typeof trialStatusResponseSchema>;
