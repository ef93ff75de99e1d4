import { UPTIME_WINDOWS, type UptimeWindow } from '@cellport/shared/schemas/port-history-windows';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { dateTime } from '../../../lib/dates';
import { useT } from '../../../lib/i18n';
import { usePortHistory } from '../api/get-port-history';

const percent = (ratio: number, language: string) =>
  new Intl.NumberFormat(language === 'cn' ? 'zh-CN' : language, { style: 'percent', maximumFractionDigits: 2 }).format(ratio);

/**
 * "Uptime and IP history": a disclosure that loads, when opened, the port's uptime over 24 h, 7 d and 30 d (from its
 * modem's health checks, counted from when the port got the modem) and the last IPs it sent from, with their times.
 */
export function PortHistoryDetails({ portId }: { portId: string }) {
  const { t, language } = useT('proxies');
  const [open, setOpen] = useState(false);
  const history = usePortHistory(portId, open);
  return (
    <details className="px-try px-history" onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="port-history">
      <summary className="px-try__summary">{t('history.summary')}</summary>
      <div className="px-try__body">
        {history.isPending ? <Spinner size={20} label={t('history.loading')} /> : history.isError ? (
          <p role="alert">{t('history.failed')} <Button variant="link" size="sm" onClick={() => void history.refetch()}>{t('history.retry')}</Button></p>
        ) : (
          <>
            <dl className="px-history__uptime">
              {(Object.keys(UPTIME_WINDOWS) as UptimeWindow[]).map((w) => (
                <div key={w} className="px-history__window">
                  <dt>{t(`history.windows.${w}`)}</dt>
                  <dd data-testid={`port-uptime-${w}`}>{percent(history.data.uptime[w].ratio, language)}</dd>
                </div>
              ))}
            </dl>
            <h3 className="px-history__title">{t('history.ips')}</h3>
            {history.data.ips.length === 0 ? <p className="px-try__text">{t('history.noIps')}</p> : (
              <ol className="px-history__ips">
                {history.data.ips.map((entry) => (
                  <li key={`${entry.ip}-${entry.at}`}>
                    <code>{entry.ip}</code> <time dateTime={entry.at}>{dateTime(entry.at, language)}</time>
                  </li>
                ))}
              </ol>
            )}
            <p className="px-try__text px-history__note">{t('history.note')}</p>
          </>
        )}
      </div>
    </details>
  );
}
