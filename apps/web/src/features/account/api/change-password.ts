import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api';
import { sessionsQueryKey } from './sessions';

export interface PasswordInput { current: string; password: string; repeat: string }

/** Changes the password; the server ends every other session, so the sessions list is reloaded. */
export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: PasswordInput) => apiPost<{ success: boolean }>('/me/password', input),
    onSuccess: () => client.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}
