import * as z from 'zod/mini';
import { text } from '../text.js';

// Operator console (issue 6). Every route lives under /api/v1/admin/*, needs an admin session (401 visitor, 403
// customer) and records each write in the audit log. Server routes validate and serialize with these schemas and
// the console pages use the same ones.
//
// Conventions of these files: camelCase fields, `id` for ids (UUID strings, except ledger/audit ids: digit strings),
// money as STRINGS of integer minor units (USD/USDT micro-units "2500000" = $2.50, BTC satoshi), dates ISO-8601.
// Lists that can grow answer {items, total, totalCapped, page, pageSize}; `page` starts at 1. `total` is counted up
// to a cap (10,000 on the server): `totalCapped: true` means there are more than `total` ("10,000+"; decision 029).
//
// The schemas live in one file per area of the console (admins.ts, customers.ts, …); this one holds what they share.

export const ADMIN_LIMITS = {
  pageSizeDefault: 50,
  pageSizeMax: 200,
  searchMax: 200,
  reasonMin: 3,
  reasonMax: 500,
  csvMaxRows: 5000,
  csvMaxChars: 1_000_000,
  notificationMax: 1000,
  overviewDaysMax: 366,
  expiringSoonDays: 7,
} as const;

export const ADMIN_MESSAGES = {
  reason: 'Give a reason of 3-500 characters',
  signedAmount: 'Enter a non-zero whole number of minor units, for example 2500000 or -2500000',
  names: 'Give the name in English, Russian and Chinese',
  email: 'Enter a valid e-mail address',
} as const;

// ---- building blocks of the area files ---------------------------------------------------------------------------

export const uuid = z.uuid();
export const isoDate = text();
export const bigintId = text().check(z.regex(/^\d{1,19}$/));
/** Signed integer minor units as a string, never zero ("-2500000" takes $2.50). */
export const signedMoneySchema = text().check(
  z.trim(),
  z.regex(/^-?[1-9]\d{0,17}$/, ADMIN_MESSAGES.signedAmount),
);
export const positiveMoneySchema = text().check(z.trim(), z.regex(/^[1-9]\d{0,17}$/));
export const reasonSchema = text().check(
  z.trim(),
  z.minLength(ADMIN_LIMITS.reasonMin, ADMIN_MESSAGES.reason),
  z.maxLength(ADMIN_LIMITS.reasonMax, ADMIN_MESSAGES.reason),
);
export const trimmedText = (max: number) => text().check(z.trim(), z.minLength(1), z.maxLength(max));
/** Names in the three languages, each 1-100 characters. */
export const adminNamesSchema = z.object({ en: trimmedText(100), ru: trimmedText(100), cn: trimmedText(100) }, { error: ADMIN_MESSAGES.names });
export const coinSchema = z.enum(['btc', 'usdt']);
export const portNumber = z.number().check(z.int(), z.minimum(1), z.maximum(65535));

export const adminIdParamsSchema = z.object({ id: uuid });
export type AdminIdParams = z.infer<typeof adminIdParamsSchema>;
export const pageQueryFields = {
  page: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(1_000_000))),
  pageSize: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(ADMIN_LIMITS.pageSizeMax))),
};
export const searchField = z.optional(text().check(z.trim(), z.maxLength(ADMIN_LIMITS.searchMax)));
export const pageOf = <T extends z.core.$ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    /** How many match, exact up to the server's cap; with totalCapped, at least this many (the cap) and more. */
    total: z.number(),
    totalCapped: z.boolean(),
    page: z.number(),
    pageSize: z.number(),
  });
export const okResponseSchema = z.object({ ok: z.literal(true) });
export type OkResponse = z.infer<typeof okResponseSchema>;
