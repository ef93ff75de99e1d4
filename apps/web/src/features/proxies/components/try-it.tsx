import type { Port } from '@cellport/shared/schemas/catalog';
import { CopyButton } from '../../../components/ui/copy-button';
import { useT } from '../../../lib/i18n';
import { curlCommands } from '../lib/export-lines';

/**
 * "Try it with curl": a disclosure with two ready commands, over HTTP and over SOCKS5, that print the IP address the
 * port sends from. They ask this dashboard's own GET /api/v1/ip through the proxy, so they need no outside service.
 * Open at once on a port just bought, closed otherwise to keep the card short.
 */
export function TryIt({ port, defaultOpen }: { port: Port; defaultOpen: boolean }) {
  const { t } = useT('proxies');
  const { http, socks } = curlCommands(port, window.location.origin);
  const rows = [
    { key: 'http', label: t('tryIt.http'), command: http, testId: 'port-curl-http' },
    { key: 'socks', label: t('tryIt.socks'), command: socks, testId: 'port-curl-socks' },
  ];
  return (
    <details className="px-try" open={defaultOpen || undefined} data-testid="port-try-it">
      <summary className="px-try__summary">{t('tryIt.summary')}</summary>
      <div className="px-try__body">
        <p className="px-try__text">{t('tryIt.text')}</p>
        {port.suspended && port.status === 'active' ? <p className="px-try__note" role="note">{t('tryIt.suspended')}</p>
          : !port.online && port.status === 'active' ? <p className="px-try__note" role="note">{t('tryIt.offline')}</p> : null}
        <dl className="px-try__lines">
          {rows.map((row) => (
            <div className="px-try__row" key={row.key}>
              <dt>{row.label}</dt>
              <dd>
                <code data-testid={row.testId}>{row.command}</code>
                <CopyButton value={row.command} label={t('copy')} className="px-try__copy" />
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </details>
  );
}
