import type { Subscription } from '@cellport/shared/schemas/subscriptions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../lib/api';

// The customer's card subscriptions (issue 27 item 1): read by Billing & Renewals, where they are managed, and by
// each port card on Your Proxies, which says when the card renews it.
export const subscriptionsQueryKey = ['subscriptions'] as const;

/** GET /subscriptions — live ones first; none while card payments are off. */
export const useSubscriptions = (enabled = true) => useQuery({
  queryKey: subscriptionsQueryKey,
  queryFn: () => apiGet<{ data: Subscription[] }>('/subscriptions').then((r) => r.data),
  enabled,
});

/** The live subscription (not ended) that renews this port, if any. */
export function usePortSubscription(portId: string): Subscription | undefined {
  const { data } = useSubscriptions();
  return data?.find((s) => s.status !== 'canceled' && s.ports.some((p) => p.id === portId));
}

export type SubscriptionAction = { id: string; action: 'cancel' | 'resume' } | { id: string; action: 'card'; paymentMethodId: string };

/** POST /subscriptions/:id/{cancel|resume|card}; the list is fetched again. */
export function useSubscriptionAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (a: SubscriptionAction) => apiPost<{ data: Subscription }>(
      `/subscriptions/${encodeURIComponent(a.id)}/${a.action}`, a.action === 'card' ? { paymentMethodId: a.paymentMethodId } : {},
    ).then((r) => r.data),
    onSuccess: () => client.invalidateQueries({ queryKey: subscriptionsQueryKey }),
  });
}
