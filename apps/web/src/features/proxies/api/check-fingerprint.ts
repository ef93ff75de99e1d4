import type { FingerprintCheckResponse } from '@cellport/shared/schemas/fingerprint';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api';

/** POST /modems/:id/fingerprint-check: a connection through the port to the fingerprint echo, and what it saw. */
export const useFingerprintCheck = (portId: string) => useMutation({
  mutationFn: () => apiPost<FingerprintCheckResponse>(`/modems/${encodeURIComponent(portId)}/fingerprint-check`),
});
