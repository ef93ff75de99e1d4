import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WebhookDelivery, WebhookEndpoint, WebhookEventType } from '@cellport/shared/schemas/webhooks';
import { apiDelete, apiGet, apiPatch, apiPost } from '../../../lib/api';

const KEY = ['webhooks'] as const;
const deliveriesKey = (id: string) => ['webhooks', id, 'deliveries'] as const;

/** GET /api/v1/webhooks → the customer's endpoints (the secret is never sent again). */
export const useWebhooks = () =>
  useQuery({ queryKey: KEY, queryFn: async () => (await apiGet<{ data: WebhookEndpoint[] }>('/webhooks')).data });

/** GET /api/v1/webhooks/:id/deliveries → the latest deliveries, newest first; refreshed while any is pending. */
export const useWebhookDeliveries = (id: string) => useQuery({
  queryKey: deliveriesKey(id),
  queryFn: async () => (await apiGet<{ data: WebhookDelivery[] }>(`/webhooks/${encodeURIComponent(id)}/deliveries`)).data,
  refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'pending') ? 3000 : false),
});

/** POST /api/v1/webhooks {url, eventTypes} → the endpoint and its signing secret, shown once. */
export function useCreateWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { url: string; eventTypes: WebhookEventType[] }) =>
      apiPost<{ data: WebhookEndpoint; secret: string }>('/webhooks', body),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** PATCH /api/v1/webhooks/:id (turn on or off). */
export function useUpdateWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; enabled?: boolean }) =>
      apiPatch<{ data: WebhookEndpoint }>(`/webhooks/${encodeURIComponent(id)}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** DELETE /api/v1/webhooks/:id. */
export function useDeleteWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiDelete<unknown>(`/webhooks/${encodeURIComponent(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** POST /api/v1/webhooks/:id/test, or …/deliveries/:deliveryId/redeliver: a delivery queued. */
export function useQueueDelivery() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, deliveryId }: { id: string; deliveryId?: string }) => apiPost<{ data: WebhookDelivery }>(deliveryId
      ? `/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`
      : `/webhooks/${encodeURIComponent(id)}/test`),
    onSuccess: (_r, { id }) => client.invalidateQueries({ queryKey: deliveriesKey(id) }),
  });
}
