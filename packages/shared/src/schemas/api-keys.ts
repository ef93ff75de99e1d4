import * as z from 'zod/mini';
import { text } from './text.js';

// Customer API keys (issue 5): `Authorization: Bearer cpk_…` on the customer API instead of the cookie.

export const API_KEY_PREFIX = 'cpk_';
/** Characters of the key shown in the list (the key itself is shown once). */
export const API_KEY_SHOWN_CHARS = 8;
export const API_KEY_NAME_MAX = 60;
export const API_KEYS_PER_CUSTOMER_MAX = 20;

export const apiKeySchema = z.object({
  _id: text(),
  name: text(),
  prefix: text(),
  createdAt: text(),
  lastUsedAt: z.nullable(text()),
});
export type ApiKey = z.infer<typeof apiKeySchema>;
export const apiKeysResponseSchema = z.object({ data: z.array(apiKeySchema) });
export const createApiKeyRequestSchema = z.object({
  name: text().check(z.trim(), z.minLength(1, 'Give the key a name'), z.maxLength(API_KEY_NAME_MAX, 'Name must be at most 60 characters long')),
});
export const createApiKeyResponseSchema = z.object({
  data: z.object({ _id: text(), name: text(), prefix: text(), createdAt: text() }),
  key: text(),
});
export const apiKeyParamsSchema = z.object({ id: z.uuid() });
