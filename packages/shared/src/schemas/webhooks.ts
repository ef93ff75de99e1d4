import * as z from 'zod/mini';
import { text } from './text.js';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_URL_MAX } from './webhooks-constants.js';

// Customer webhooks (issue 16), signed the Standard Webhooks way (webhook-id, webhook-timestamp,
// webhook-signature: v1,<base64 HMAC-SHA256 of `id.timestamp.body`> under the base64 key after `whsec_`).

export * from './webhooks-constants.js';

const eventType = z.enum(WEBHOOK_EVENT_TYPES);

export const webhookEndpointSchema = z.object({
  _id: text(),
  url: text(),
  eventTypes: z.array(text()),
  enabled: z.boolean(),
  /** Why the server disabled it (deliveries kept failing), or null. */
  disabledReason: z.nullable(text()),
  createdAt: text(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;
export const webhookEndpointsResponseSchema = z.object({ data: z.array(webhookEndpointSchema) });

const webhookUrl = text().check(
  z.trim(),
  z.maxLength(WEBHOOK_URL_MAX, 'The address is too long'),
  z.refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password && url.hostname !== '';
    } catch { return false; }
  }, 'Enter an http:// or https:// address'),
);

export const createWebhookEndpointRequestSchema = z.object({
  url: webhookUrl,
  eventTypes: z.array(eventType).check(z.minLength(1, 'Choose at least one event'), z.maxLength(WEBHOOK_EVENT_TYPES.length)),
});
export const updateWebhookEndpointRequestSchema = z.object({
  url: z.optional(webhookUrl),
  eventTypes: z.optional(z.array(eventType).check(z.minLength(1, 'Choose at least one event'), z.maxLength(WEBHOOK_EVENT_TYPES.length))),
  /** true re-enables an endpoint the server disabled (its held deliveries go out again). */
  enabled: z.optional(z.boolean()),
});
export const createWebhookEndpointResponseSchema = z.object({ data: webhookEndpointSchema, secret: text() });
export const webhookEndpointResponseSchema = z.object({ data: webhookEndpointSchema });
export const webhookEndpointParamsSchema = z.object({ id: z.uuid() });
export const webhookDeliveryParamsSchema = z.object({ id: z.uuid(), deliveryId: z.uuid() });

export const webhookDeliverySchema = z.object({
  _id: text(),
  msgId: text(),
  eventType: text(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number(),
  /** HTTP status of the last attempt, or null (no answer: refused address, timeout, connection error). */
  responseStatus: z.nullable(z.number()),
  latencyMs: z.nullable(z.number()),
  error: z.nullable(text()),
  createdAt: text(),
  lastAttemptAt: z.nullable(text()),
  nextAttemptAt: z.nullable(text()),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveriesResponseSchema = z.object({ data: z.array(webhookDeliverySchema) });
export const webhookDeliveryResponseSchema = z.object({ data: webhookDeliverySchema });
