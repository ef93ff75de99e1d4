import type { Port, RotationLinkResponse } from '@cellport/shared/schemas/catalog';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api';
import { modemsStore } from '../../../store/modems';

/** Issues a new rotation link for a port; the old link stops working at once. */
export function useNewRotationLink(port: Port) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost<RotationLinkResponse>(`/modems/${encodeURIComponent(port._id)}/rotation-link`),
    onSuccess: ({ rotationLink }) => {
      const store = modemsStore(queryClient);
      const current = store.modems.find((m) => m._id === port._id) ?? port;
      store.addOrUpdate({ ...current, rotationLink });
    },
  });
}
