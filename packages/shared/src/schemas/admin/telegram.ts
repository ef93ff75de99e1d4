import * as z from 'zod/mini';
import { text } from '../text.js';

// Operator console, Settings → Telegram bot (issue 16, item 2). The token is write-only: answers carry a hint only.

export const TELEGRAM_TOKEN_PATTERN = /^\d+:[\w-]{20,}$/;

/** GET/PATCH /admin/telegram */
export const adminTelegramResponseSchema = z.object({
  /** Where the token in use comes from: the console, TELEGRAM_BOT_TOKEN, or none (sandbox / off). */
  source: z.enum(['console', 'env', 'none']),
  /** The token's bot id and last 4 characters ("123456:…wxyz"), never the token. */
  tokenHint: z.nullable(text()),
  mode: z.enum(['polling', 'webhook']),
  /** No token: the sandbox outside production (messages to the log), nothing in production. */
  sandbox: z.boolean(),
  botUsername: z.nullable(text()),
});
export type AdminTelegramResponse = z.infer<typeof adminTelegramResponseSchema>;

/** null clears the console's value (back to the environment's). */
export const adminTelegramPatchRequestSchema = z.object({
  token: z.optional(z.nullable(z.string().check(z.trim(), z.regex(TELEGRAM_TOKEN_PATTERN, 'A bot token from @BotFather looks like 123456789:AAE…')))),
  mode: z.optional(z.nullable(z.enum(['polling', 'webhook']))),
});
export type AdminTelegramPatchRequest = z.input<typeof adminTelegramPatchRequestSchema>;
