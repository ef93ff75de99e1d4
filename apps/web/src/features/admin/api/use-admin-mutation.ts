import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { errorText } from '../../../lib/translate-api-error';
import { ADMIN_KEY } from './admin-client';

/**
 * A console write: on success a toast with `successKey` (admin namespace) and every admin query refetched (any
 * write can change the overview, the audit log and the lists); on failure the server's error, translated.
 * `onError` returning true means the caller showed the error itself (e.g. beside a field).
 */
export function useAdminMutation<TVars, TResult>(
  fn: (vars: TVars) => Promise<TResult>,
  options: {
    successKey?: string | ((result: TResult, vars: TVars) => string);
    onSuccess?: (result: TResult, vars: TVars) => void;
    onError?: (error: unknown) => boolean | void;
  } = {},
) {
  const { t } = useT(['admin', 'errors']);
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async (result, vars) => {
      const key = typeof options.successKey === 'function' ? options.successKey(result, vars) : options.successKey;
      if (key) toast.success(t(key));
      options.onSuccess?.(result, vars);
      await client.invalidateQueries({ queryKey: [ADMIN_KEY] });
    },
    onError: (error) => {
      if (options.onError?.(error) === true) return;
      toast.error(errorText(t, error));
    },
  });
}
