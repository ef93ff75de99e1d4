import type { Port, RotateResponse } from '@cellport/shared/schemas/catalog';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api';
import { modemsStore } from '../../../store/modems';

/**
 * POST /modems/:id/rotate with the list kept in step: 'rotating' at once, then the new IP on every port of the same
 * modem (by IMEI). A refused or failed rotation leaves the IP as it was; the caller refetches the true state.
 */
export async function rotatePort(queryClient: QueryClient, port: Pick<Port, '_id' | 'IMEI'>): Promise<RotateResponse> {
  modemsStore(queryClient).updateByImei({ IMEI: port.IMEI, applyStatus: 'rotating' });
  const result = await apiPost<RotateResponse>(`/modems/${encodeURIComponent(port._id)}/rotate`);
  modemsStore(queryClient).updateByImei({ IMEI: port.IMEI, applyStatus: result.applyStatus, ext_ip: result.new_ip });
  return result;
}

/** Rotates a port's IP now; takes a few seconds. */
export function useRotatePort(port: Pick<Port, '_id' | 'IMEI'>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => rotatePort(queryClient, port),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['modems'] }),
  });
}
