import type { AdminNotificationRequest, AdminNotificationResponse } from '@cellport/shared/schemas/admin/notifications';
import { adminPost } from './admin-client';

/** POST /admin/notifications to one customer (`to` = id) or to all. */
export const sendNotification = (body: AdminNotificationRequest) => adminPost<AdminNotificationResponse>('/notifications', body);
