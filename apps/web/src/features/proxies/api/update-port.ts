import type { Port, PortPatchRequest } from '@cellport/shared/schemas/catalog';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPatch } from '../../../lib/api';
import { modemsStore } from '../../../store/modems';

/** PATCH /modems/:id (name, credentials, whitelist, rotation interval, auto-renew); the answer is the updated port. */
export function useUpdatePort() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: PortPatchRequest }) => apiPatch<Port>(`/modems/${encodeURIComponent(id)}`, patch),
    onSuccess: (port) => {
      modemsStore(queryClient).addOrUpdate(port);
    },
  });
}
