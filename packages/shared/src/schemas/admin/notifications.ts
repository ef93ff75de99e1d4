import * as z from 'zod/mini';
import { ADMIN_LIMITS, trimmedText, uuid } from './common.js';

// Operator console, Notifications. Conventions and building blocks: common.ts.

// ---- notifications: POST /admin/notifications ---------------------------------------------------------------------

export const adminNotificationRequestSchema = z.object({
  to: z.union([z.literal('all'), uuid]),
  text: z.object({
    en: trimmedText(ADMIN_LIMITS.notificationMax), ru: trimmedText(ADMIN_LIMITS.notificationMax), cn: trimmedText(ADMIN_LIMITS.notificationMax),
  }),
});
/** How many customers got it. */
export const adminNotificationResponseSchema = z.object({ sent: z.number() });
export type AdminNotificationRequest = z.input<typeof adminNotificationRequestSchema>;
export type AdminNotificationResponse = z.infer<typeof adminNotificationResponseSchema>;
