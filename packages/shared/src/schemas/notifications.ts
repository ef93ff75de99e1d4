import * as z from 'zod/mini';
import { text } from './text.js';

// Notifications (spec §3, issue 5). The text is already in the customer's language when it reaches the client.

export const NOTIFICATION_TYPES = ['payment', 'other'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
/** How many notifications GET /notifications returns (newest first). */
export const NOTIFICATIONS_PAGE = 50;
/** An operator message is at most this long in any language. */
export const OPERATOR_MESSAGE_MAX = 2000;

export const notificationSchema = z.object({
  _id: text(),
  text: text(),
  unread: z.boolean(),
  type: z.enum(NOTIFICATION_TYPES),
  /** ISO-8601. */
  timestamp: text(),
  /** The page it is about, a path without the language (`/support/<id>`), when it has one. */
  link: z.optional(text()),
});
export type Notification = z.infer<typeof notificationSchema>;

/** GET /api/v1/notifications; the same version is sent as the ETag `"n<version>"`. */
export const notificationsResponseSchema = z.object({
  version: z.number(),
  data: z.array(notificationSchema),
});
export type NotificationsResponse = z.infer<typeof notificationsResponseSchema>;

export const notificationParamsSchema = z.object({ id: z.uuid() });
export const successResponseSchema = z.object({ success: z.boolean() });
/** GET /api/v1/unsubscribe/:token, the signed link of a marketing e-mail. */
export const unsubscribeParamsSchema = z.object({ token: z.string().check(z.maxLength(300)) });
