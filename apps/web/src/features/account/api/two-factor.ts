import type { Me, RecoveryCodes, TwoFactorEnabled, TwoFactorSetup } from '@cellport/shared/schemas/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api';
import { meQueryKey } from './get-me';

export const useStartTwoFactor = () =>
  useMutation({ mutationFn: () => apiPost<TwoFactorSetup>('/me/2fa/setup', {}) });

/**
 * Enable (confirm the pending secret) or disable two-factor with a code; the answer is the updated user, and on
 * enabling also the recovery codes, which stay with the caller (never in the query cache).
 */
export function useTwoFactorCode(action: 'enable' | 'disable') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => apiPost<Me | TwoFactorEnabled>(`/me/2fa/${action}`, { code }),
    onSuccess: (answer) => {
      const { recoveryCodes: _codes, ...me } = answer as TwoFactorEnabled;
      client.setQueryData(meQueryKey, me);
    },
  });
}

/** A new set of recovery codes, proven with the password or an app code; the old set stops working. */
export function useRegenerateRecoveryCodes() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (proof: { password?: string; code?: string }) => apiPost<RecoveryCodes>('/me/2fa/recovery-codes', proof),
    onSuccess: () => client.invalidateQueries({ queryKey: meQueryKey }),
  });
}
