import { useQuery } from '@tanstack/react-query';
import type { AdminSubscription, SubscriptionStatus } from '@cellport/shared/schemas/subscriptions';
import { ADMIN_KEY, adminGet, adminPost, toQuery } from './admin-client';

export interface AdminSubscriptionsFilter { userId?: string | undefined; status?: SubscriptionStatus | undefined }

/** GET /admin/subscriptions — everyone's card subscriptions, or one customer's, by status. */
export const useAdminSubscriptions = (filter: AdminSubscriptionsFilter) =>
  useQuery({
    queryKey: [ADMIN_KEY, 'subscriptions', filter],
    queryFn: () => adminGet<{ items: AdminSubscription[] }>(`/subscriptions${toQuery({ userId: filter.userId, status: filter.status })}`),
  });

/** POST /admin/subscriptions/:id/cancel — ends it now; the reason goes to the audit log. */
export const cancelSubscription = ({ id, reason }: { id: string; reason: string }) =>
  adminPost<{ subscription: AdminSubscription }>(`/subscriptions/${encodeURIComponent(id)}/cancel`, { reason, when: 'now' });
