import { randomBytes } from 'node:crypto';

/** A Standard Webhooks message id. */
export const newMessageId = () => `msg_${randomBytes(16).toString('base64url')}`;

/** The body every delivery carries: `{type, timestamp, data}` (Standard Webhooks' payload structure). */
export const webhookPayload = (type: string, data: Record<string, unknown>, at = new Date()) =>
  ({ type, timestamp: at.toISOString(), data });
