import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { WebhookEventType } from '@cellport/shared/schemas/webhooks';
import type { Database, Tx } from '../../db/database.js';

/** A Standard Webhooks message id. */
export const newMessageId = () => `msg_${randomBytes(16).toString('base64url')}`;

/** The body every delivery carries: `{type, timestamp, data}` (Standard Webhooks' payload structure). */
export const webhookPayload = (type: string, data: Record<string, unknown>, at = new Date()) =>
  ({ type, timestamp: at.toISOString(), data });

/**
 * The one publisher of customer webhook events. Pass the transaction of the change the event tells about: the
 * delivery rows commit (or roll back) with it, one per enabled endpoint of the customer that subscribed to the
 * type, and the delivery jobs (webhooks.service.ts) pick them up. One statement; nothing when nobody listens.
 */
export async function publishWebhookEvent(
  q: Database | Tx, userId: string, type: WebhookEventType, data: Record<string, unknown>,
): Promise<void> {
  const payload = JSON.stringify(webhookPayload(type, data), (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
  await sql`
    insert into webhook_deliveries (endpoint_id, user_id, msg_id, event_type, payload)
    select e.id, e.user_id, ${newMessageId()}, ${type}, ${payload}::jsonb
    from webhook_endpoints e
    where e.user_id = ${userId} and e.enabled and ${type} = any(e.event_types)
    order by e.created_at`.execute(q);
}
