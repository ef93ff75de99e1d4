import * as z from 'zod/mini';

// Development helpers, never in production (GET /api/v1/dev/outbox: the e-mails the product sent, newest first).

export const outboxQuerySchema = z.object({ to: z.optional(z.string().check(z.maxLength(254))) });
export const outboxMessageSchema = z.object({
  to: z.string(), subject: z.string(), text: z.string(), html: z.string(), createdAt: z.string(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;
export const outboxResponseSchema = z.array(outboxMessageSchema);

/**
 * POST /api/v1/dev/telegram/start: the sandbox bot (no bot token) receives "/start <token>" as if the person had
 * pressed Start in Telegram, so linking can be finished offline. `link` is the link the Account page shows (or its token).
 */
export const devTelegramStartRequestSchema = z.object({
  link: z.string().check(z.trim(), z.minLength(1), z.maxLength(300)),
  chatName: z.optional(z.string().check(z.trim(), z.maxLength(64))),
});
export const devTelegramStartResponseSchema = z.object({ reply: z.string() });
export type DevTelegramStartResponse = z.infer<typeof devTelegramStartResponseSchema>;
