import type { Port, RotationTag } from '@cellport/shared/schemas/catalog';
import { ROTATION_INTERVALS } from '@cellport/shared/schemas/catalog-constants';
import { useId } from 'react';
import { useT } from '../../../lib/i18n';
import { errorText } from '../../../lib/translate-api-error';
import { toast } from '../../../lib/toast';
import { useUpdatePort } from '../api/update-port';

/**
 * The port's automatic IP rotation. A dedicated port sets its own interval (saved at once); a shared port follows
 * its modem's schedule, so it only shows it.
 */
export function RotationIntervalSelect({ port, tags }: { port: Port; tags: readonly RotationTag[] }) {
  const { t } = useT(['proxies', 'errors']);
  const update = useUpdatePort();
  const id = useId();
  const label = (minutes: number) => tags.find((tag) => tag.value === minutes)?.label ?? t('interval.minutes', { count: minutes });
  const values = tags.length ? tags.map((tag) => tag.value) : [...ROTATION_INTERVALS];

  if (port.isShared) {
    return <p className="px-interval"><span>{t('interval.label')}</span> <strong>{label(port.rotationInterval)}</strong></p>;
  }
  return (
    <div className="px-interval">
      <label htmlFor={id}>{t('interval.label')}</label>
      <select
        id={id} value={port.rotationInterval} disabled={update.isPending || port.status === 'expired'}
        onChange={(e) => update.mutate(
          { id: port._id, patch: { rotationInterval: Number(e.target.value) } },
          {
            onSuccess: (p) => toast.success(t('interval.done', { interval: label(p.rotationInterval) })),
            onError: (error) => toast.error(errorText(t, error)),
          },
        )}
      >
        {values.map((minutes) => <option key={minutes} value={minutes}>{label(minutes)}</option>)}
      </select>
    </div>
  );
}
