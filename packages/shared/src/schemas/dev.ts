import * as z from 'zod/mini';

// Development helpers, never in production (GET /api/v1/dev/outbox: the e-mails the product sent, newest first).

export const outboxQuerySchema = z.object({ to: z.optional(z.string().check(z.maxLength(254))) });
export const outboxMessageSchema = z.object({
  to: z.string(), subject: z.string(), text: z.string(), html: z.string(), createdAt: z.string(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;
export const outboxResponseSchema = z.array(outboxMessageSchema);
