import type { TrafficGranularity, TrafficRow } from '@cellport/shared/schemas/traffic';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { formatBytes } from '../../../lib/bytes';
import { useT } from '../../../lib/i18n';
import { bucketLabel } from './traffic-chart';

const PAGE = 50;

/** Every row the server sent (per port and bucket), newest first, 50 at a time. */
export function TrafficTable({ rows, granularity }: { rows: TrafficRow[]; granularity: TrafficGranularity }) {
  const { t, language } = useT('traffic');
  const [shown, setShown] = useState(PAGE);
  const sorted = [...rows].sort((a, b) => b.bucket.localeCompare(a.bucket) || a.modem_name.localeCompare(b.modem_name));
  return (
    <div className="traffic-table">
      {/* Focusable and named so keyboard users can scroll it sideways on a phone. */}
      <div className="traffic-table__scroll" tabIndex={0} role="region" aria-label={t('table.caption')}>
        <table>
          <caption className="visually-hidden">{t('table.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{granularity === 'hour' ? t('table.hour') : t('table.day')}</th>
              <th scope="col">{t('table.port')}</th>
              <th scope="col" className="num">{t('in')}</th>
              <th scope="col" className="num">{t('out')}</th>
            </tr>
          </thead>
          <tbody>
            {sorted.slice(0, shown).map((row) => (
              <tr key={`${row.bucket}|${row.port_id}`}>
                <td><time dateTime={row.bucket}>{bucketLabel(row.bucket, granularity, language, true)}</time></td>
                <td>{row.modem_name}</td>
                <td className="num">{formatBytes(row.bytesIn, language)}</td>
                <td className="num">{formatBytes(row.bytesOut, language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {sorted.length > shown ? (
        <Button variant="secondary" size="sm" onClick={() => setShown((n) => n + PAGE)}>
          {t('table.more', { shown, total: sorted.length })}
        </Button>
      ) : null}
    </div>
  );
}
