import type { Port, RotateResponse } from '@cellport/shared/schemas/catalog';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api';
import { modemsStore } from '../../../store/modems';

/** Rotates a port's IP now; takes a few seconds. The new IP lands on every port of the same modem (by IMEI). */
export function useRotatePort(port: Pick<Port, '_id' | 'IMEI'>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost<RotateResponse>(`/modems/${encodeURIComponent(port._id)}/rotate`),
    onMutate: () => modemsStore(queryClient).updateByImei({ IMEI: port.IMEI, applyStatus: 'rotating' }),
    onSuccess: (result) => {
      modemsStore(queryClient).updateByImei({ IMEI: port.IMEI, applyStatus: result.applyStatus, ext_ip: result.new_ip });
      void queryClient.invalidateQueries({ queryKey: ['modems'] });
    },
    // A refused or failed rotation leaves the IP as it was; the list is refetched for the true state.
    onError: () => void queryClient.invalidateQueries({ queryKey: ['modems'] }),
  });
}
