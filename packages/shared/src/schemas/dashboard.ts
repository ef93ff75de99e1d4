import * as z from 'zod/mini';
import { notificationSchema } from './notifications.js';

// GET /api/v1/dashboard (issue 5).
export const dashboardResponseSchema = z.object({
  activePorts: z.number(),
  expiringSoon: z.array(z.object({ _id: z.string(), modem_name: z.string(), expiresAt: z.string() })),
  traffic24h: z.object({ bytesIn: z.string(), bytesOut: z.string() }),
  recentNotifications: z.array(notificationSchema),
});
export type DashboardResponse = z.infer<typeof dashboardResponseSchema>;
