import type { Me, TwoFactorSetup } from '@cellport/shared/schemas/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api';
import { meQueryKey } from './get-me';

export const useStartTwoFactor = () =>
  useMutation({ mutationFn: () => apiPost<TwoFactorSetup>('/me/2fa/setup', {}) });

/** Enable (confirm the pending secret) or disable two-factor with a code; the answer is the updated user. */
export function useTwoFactorCode(action: 'enable' | 'disable') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => apiPost<Me>(`/me/2fa/${action}`, { code }),
    onSuccess: (me) => client.setQueryData(meQueryKey, me),
  });
}
