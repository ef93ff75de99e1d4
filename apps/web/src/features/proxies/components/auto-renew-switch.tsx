import type { Port } from '@cellport/shared/schemas/catalog';
import { useId } from 'react';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { useUpdatePort } from '../api/update-port';
import { errorText } from '../../../lib/translate-api-error';

/** Auto-renew from the balance before expiry, as a switch that saves at once. */
export function AutoRenewSwitch({ port }: { port: Port }) {
  const { t } = useT(['proxies', 'errors']);
  const update = useUpdatePort();
  const id = useId();
  return (
    <label className="px-switch" htmlFor={id}>
      <input
        id={id} type="checkbox" role="switch" checked={port.autoRenew} disabled={update.isPending}
        onChange={(e) => update.mutate(
          { id: port._id, patch: { autoRenew: e.target.checked } },
          {
            onSuccess: (p) => toast.success(p.autoRenew ? t('autoRenew.on') : t('autoRenew.off')),
            onError: (error) => toast.error(errorText(t, error)),
          },
        )}
      />
      <span className="px-switch__track" aria-hidden="true" />
      <span>{t('autoRenew.label')}</span>
    </label>
  );
}
