import type { Port, RotationLinkResponse } from '@cellport/shared/schemas/catalog';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api';
import { modemsStore } from '../../../store/modems';

/** Issues a new rotation link for a port; the old link stops working at once. */
export function useNewRotationLink(port: Port) {
  return useMutation({
    mutationFn: () => apiPost<RotationLinkResponse>(`/modems/${encodeURIComponent(port._id)}/rotation-link`),
    onSuccess: ({ rotationLink }) => {
      const current = modemsStore.getState().modems.find((m) => m._id === port._id) ?? port;
      modemsStore.getState().addOrUpdate({ ...current, rotationLink });
    },
  });
}
