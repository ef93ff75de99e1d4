import * as z from 'zod/mini';
import { text } from '../text.js';
import { ADMIN_MESSAGES } from './common.js';
import { REPLACEMENT_LIMITS } from '../replacement.js';

// Operator console, Settings. Conventions and building blocks: common.ts.

// ---- settings: GET/PATCH /admin/settings --------------------------------------------------------------------------

/** Never a secret: only whether each key is set. */
export const adminSettingsResponseSchema = z.object({
  card: z.object({
    mode: z.enum(['stripe', 'sandbox', 'off']),
    secretKeySet: z.boolean(), publishableKeySet: z.boolean(), webhookSecretSet: z.boolean(),
  }),
  paypal: z.object({
    mode: z.enum(['sandbox', 'live', 'off']),
    /** The receiver in effect (the operator's override, else PAYPAL_RECEIVER_EMAIL). */
    receiverEmail: text(),
    receiverOverridden: z.boolean(),
  }),
  btc: z.object({ xpubSet: z.boolean(), sandboxKey: z.boolean() }),
  usdt: z.object({ xpubSet: z.boolean(), sandboxKey: z.boolean(), apiKeySet: z.boolean() }),
  captcha: z.object({ provider: z.enum(['altcha', 'recaptcha', 'off']), siteKeySet: z.boolean(), secretKeySet: z.boolean() }),
  smtpSet: z.boolean(),
  /** The documentation link customers see (GET /api/v1/settings); null = none. */
  documentationUrl: z.nullable(text()),
  /** A port whose modem has been offline this long moves to a free modem of the same kind (issue 15, item 6). */
  replacementAfterMinutes: z.number(),
  /** The seller's legal details printed on every invoice and receipt (issue 27, item 3); '' = not set. */
  seller: z.object({ name: text(), address: text(), taxId: text() }),
});
/** PATCH /admin/settings — null clears an override (back to the configured value). */
export const adminSettingsPatchRequestSchema = z.object({
  documentationUrl: z.optional(z.nullable(z.url().check(z.maxLength(500), z.regex(/^https?:\/\//, 'Use an http(s) address')))),
  paypalReceiverEmail: z.optional(z.nullable(z.email(ADMIN_MESSAGES.email).check(z.maxLength(254)))),
  replacementAfterMinutes: z.optional(z.nullable(z.number().check(
    z.gte(REPLACEMENT_LIMITS.afterMinutesMin), z.lte(REPLACEMENT_LIMITS.afterMinutesMax),
  ))),
  // The seller on invoices and receipts; null or '' clears it (the name goes back to 'Cellport').
  sellerName: z.optional(z.nullable(text().check(z.trim(), z.maxLength(200)))),
  sellerAddress: z.optional(z.nullable(text().check(z.trim(), z.maxLength(500)))),
  sellerTaxId: z.optional(z.nullable(text().check(z.trim(), z.maxLength(60)))),
});
export type AdminSettingsResponse = z.infer<typeof adminSettingsResponseSchema>;
export type AdminSettingsPatchRequest = z.input<typeof adminSettingsPatchRequestSchema>;
