import * as z from 'zod/mini';
import { text } from './text.js';
import { notificationSchema } from './notifications.js';

// GET /api/v1/dashboard (issue 5).
export const dashboardResponseSchema = z.object({
  activePorts: z.number(),
  expiringSoon: z.array(z.object({ _id: text(), modem_name: text(), expiresAt: text() })),
  traffic24h: z.object({ bytesIn: text(), bytesOut: text() }),
  recentNotifications: z.array(notificationSchema),
});
export type DashboardResponse = z.infer<typeof dashboardResponseSchema>;
