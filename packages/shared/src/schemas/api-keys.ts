import * as z from 'zod/mini';
import { text } from './text.js';
import { API_KEY_NAME_MAX, API_KEY_SCOPES } from './api-keys-constants.js';

// Customer API keys (issue 5): `Authorization: Bearer cpk_…` on the customer API instead of the cookie.

export * from './api-keys-constants.js';

/** The largest monthly cap a key can carry: $1,000,000 in micro-USD. */
export const API_KEY_SPEND_LIMIT_MAX = 1_000_000n * 1_000_000n;

export const apiKeySchema = z.object({
  _id: text(),
  name: text(),
  prefix: text(),
  createdAt: text(),
  lastUsedAt: z.nullable(text()),
  scope: z.enum(API_KEY_SCOPES),
  /** Micro-USD per calendar month (UTC) on a 'full' key; null: no cap. */
  monthlySpendLimit: z.nullable(text()),
  /** Micro-USD this key has spent in the current month. */
  spentThisMonth: text(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;
export const apiKeysResponseSchema = z.object({ data: z.array(apiKeySchema) });
export const createApiKeyRequestSchema = z.object({
  name: text().check(z.trim(), z.minLength(1, 'Give the key a name'), z.maxLength(API_KEY_NAME_MAX, 'Name must be at most 60 characters long')),
  /** Defaults to 'full', what keys could do before scopes existed. */
  scope: z.optional(z.enum(API_KEY_SCOPES)),
  /** Micro-USD, a whole number of cents, only with scope 'full'. Absent or null: no cap. */
  monthlySpendLimit: z.optional(z.nullable(text().check(
    // abort: the next check reads the digits with BigInt, which throws on anything else.
    z.regex(/^\d{1,13}$/, { message: 'Enter the monthly limit in micro-USD, a whole number of cents', abort: true }),
    z.refine((v) => BigInt(v) % 10_000n === 0n && BigInt(v) <= API_KEY_SPEND_LIMIT_MAX, 'Enter a monthly limit in whole cents, at most $1,000,000'),
  ))),
}).check(z.refine((r) => r.monthlySpendLimit == null || (r.scope ?? 'full') === 'full', {
  message: 'Only a key that may spend can carry a spending limit', path: ['monthlySpendLimit'],
}));
export const createApiKeyResponseSchema = z.object({
  data: z.object({ _id: text(), name: text(), prefix: text(), createdAt: text(), scope: z.enum(API_KEY_SCOPES), monthlySpendLimit: z.nullable(text()) }),
  key: text(),
});
export const apiKeyParamsSchema = z.object({ id: z.uuid() });
