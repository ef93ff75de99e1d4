import type { Port } from '@cellport/shared/schemas/catalog';
import { useT } from '../../../lib/i18n';
import { dateTime, relativeTime } from '../../../lib/dates';

/**
 * In place of 'Rotate now' on a shared port: its IP is every co-tenant's, so it changes only on the modem's schedule
 * (the server refuses it on demand); this says when next.
 */
export function SharedRotationNote({ port }: { port: Port }) {
  const { t, language } = useT('proxies');
  return (
    <p className="px-rotate px-rotate--shared" data-testid="shared-rotation">
      <span>{t('rotate.shared')}</span>{' '}
      {port.nextRotationAt ? (
        <span>
          {t('rotate.next')}{' '}
          <strong>{relativeTime(port.nextRotationAt, language)}</strong>{' '}
          <time dateTime={port.nextRotationAt}>({dateTime(port.nextRotationAt, language)})</time>
        </span>
      ) : <span>{t('rotate.noSchedule')}</span>}
    </p>
  );
}
