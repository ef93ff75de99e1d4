import type { RenewRequest, RenewResponse } from '@cellport/shared/schemas/catalog';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api';
import { modemsStore } from '../../../store/modems';

/** Renews the basket from the balance; the renewed ports, the balance and the history are refreshed. */
export function useRenewPorts() {
  const queryClient = useQueryClient();
  return useMutation({
    // ?lng: the payment's description is written in the page language.
    mutationFn: ({ request, language }: { request: RenewRequest; language: string }) =>
      apiPost<RenewResponse>(`/payment/balance/renew?lng=${encodeURIComponent(language)}`, request),
    onSuccess: ({ data }) => {
      for (const modem of data.modems) modemsStore(queryClient).addOrUpdate(modem);
      void queryClient.invalidateQueries({ queryKey: ['account'] });
      void queryClient.invalidateQueries({ queryKey: ['modems'] });
      void queryClient.invalidateQueries({ queryKey: ['payments'] });
    },
  });
}
