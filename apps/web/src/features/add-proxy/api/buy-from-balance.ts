import type { BuyRequest, PurchaseResponse } from '@cellport/shared/schemas/catalog';
import { IDEMPOTENCY_HEADER } from '@cellport/shared/schemas/catalog-constants';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { modemsStore } from '../../../store/modems';

export interface BuyAttempt {
  request: BuyRequest;
  /** The page language: the payment's description names the country and tariff in it. */
  language: string;
  /** One key per purchase attempt, reused when the same attempt is retried, so a retry never buys twice. */
  idempotencyKey: string;
}

export const buyFromBalance = ({ request, language, idempotencyKey }: BuyAttempt) =>
  api<PurchaseResponse>('POST', `/payment/balance/buy?lng=${encodeURIComponent(language)}`, request, {
    headers: { 'content-type': 'application/json', accept: 'application/json', [IDEMPOTENCY_HEADER]: idempotencyKey },
  });

/** Buys ports from the balance; afterwards the balance, the port list and the purchase history are refetched. */
export function useBuyFromBalance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: buyFromBalance,
    onSuccess: ({ data }) => {
      for (const modem of data.modems) modemsStore(queryClient).addOrUpdate(modem);
      void queryClient.invalidateQueries({ queryKey: ['account'] });
      void queryClient.invalidateQueries({ queryKey: ['modems'] });
      void queryClient.invalidateQueries({ queryKey: ['payments'] });
      void queryClient.invalidateQueries({ queryKey: ['modems-count'] });
      void queryClient.invalidateQueries({ queryKey: ['catalog-offers'] });
    },
  });
}
