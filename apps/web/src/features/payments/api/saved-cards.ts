import type { SavedCard } from '@cellport/shared/schemas/payments';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPost } from '../../../lib/api';
import type { CardConfirmer } from '../card/card-confirmer';
import type { PaymentOrder } from '../flow/payment-order';
import { cardPaymentBody, type SandboxCard } from './card-payments';

export const savedCardsQueryKey = ['saved-cards'] as const;

/** GET /payment/stripe/cards — the customer's saved cards, newest first (empty when card payments are off). */
export const useSavedCards = (enabled = true) => useQuery({
  queryKey: savedCardsQueryKey,
  queryFn: () => apiGet<{ data: SavedCard[] }>('/payment/stripe/cards').then((r) => r.data),
  enabled,
});

/** POST /payment/stripe/setup-payment-intent — the setup intent a card form confirms to save a card. */
const createSetupIntent = () =>
  apiPost<{ clientSecret: string }>('/payment/stripe/setup-payment-intent').then((r) => r.clientSecret);

/** POST /payment/stripe/sandbox/confirm-setup — the offline stand-in for Stripe.js confirmCardSetup. */
export const confirmSandboxSetup = (clientSecret: string, card: SandboxCard) =>
  apiPost<SavedCard>('/payment/stripe/sandbox/confirm-setup', { clientSecret, ...card });

/**
 * POST /payment/stripe/buy-with-saved-card/{id} — charges a saved card with the same body as a one-time card
 * payment; the credit or purchase follows through the provider's event, as for a card typed in.
 */
export async function buyWithSavedCard(cardId: string, order: PaymentOrder): Promise<string | null> {
  const r = await apiPost<{ error: string | null; data?: { payment?: { _id: string } } }>(
    `/payment/stripe/buy-with-saved-card/${encodeURIComponent(cardId)}`, cardPaymentBody(order));
  if (r.error) throw new Error(r.error);
  return r.data?.payment?._id ?? null;
}

/** DELETE /payment/stripe/{id} — removes a saved card; the list is fetched again. */
export function useRemoveSavedCard() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiDelete<{ error: null }>(`/payment/stripe/${encodeURIComponent(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: savedCardsQueryKey }),
  });
}

/** Saves a card: a setup intent from the server, confirmed by the card form (Stripe.js or the sandbox). */
export function useSaveCard() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (form: CardConfirmer) => form.save(await createSetupIntent()),
    onSuccess: () => client.invalidateQueries({ queryKey: savedCardsQueryKey }),
  });
}
