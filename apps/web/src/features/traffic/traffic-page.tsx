import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { icons } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { API_BASE } from '@cellport/shared/constants';
import { formatBytes } from '../../lib/bytes';
import { useT } from '../../lib/i18n';
import { modemsQuery } from '../../store/catalog-queries';
import type { ModemView } from '../../store/store-types';
import { trafficQuery } from './api/get-traffic';
import { MonthUsage } from './components/month-usage';
import { TrafficChart } from './components/traffic-chart';
import { TrafficFilters, type TrafficFilterState } from './components/traffic-filters';
import { TrafficTable } from './components/traffic-table';
import { bucketStarts, DEFAULT_GRANULARITY, resolveRange, trafficSearch } from './lib/range';
import { seriesByBucket } from './lib/series';
import './traffic.css';

const noPorts: ModemView[] = [];
const today = () => new Date().toLocaleDateString('sv-SE'); // YYYY-MM-DD in local time

/**
 * Traffic: this month's usage of each port against its quota; bytes in and out per port by hour or day over a chosen
 * range, as a chart and a table, with CSV export.
 */
export default function TrafficPage() {
  const { t, language } = useT(['traffic', 'common']);
  const [filters, setFilters] = useState<TrafficFilterState>({
    preset: '24h', custom: { from: today(), to: today() }, granularity: 'hour', portId: null,
  });
  const ports = useQuery(modemsQuery).data ?? noPorts;

  const resolved = useMemo(() => resolveRange(filters.preset, filters.custom), [filters.preset, filters.custom]);
  const search = resolved.ok ? trafficSearch(resolved.range, filters.granularity, filters.portId) : null;
  const query = useQuery({ ...trafficQuery(search ?? ''), enabled: search !== null });

  const onChange = (next: TrafficFilterState) =>
    setFilters(next.preset !== filters.preset ? { ...next, granularity: DEFAULT_GRANULARITY[next.preset] } : next);

  const rangeError = resolved.ok ? null : t(`errors.${resolved.error}`);
  let body;
  if (!resolved.ok) body = null;
  else if (query.isPending) body = <div className="traffic-loading"><Spinner size={28} label={t('common:loading')} /></div>;
  else if (query.isError) {
    body = (
      <div className="card traffic-error" role="alert">
        <p>{t('loadFailed')}</p>
        <Button variant="secondary" onClick={() => void query.refetch()}>{t('common:actions.retry')}</Button>
      </div>
    );
  } else if (query.data.data.length === 0) {
    body = (
      <div className="card">
        <EmptyState icon={icons.traffic} title={t('empty.title')}
          action={ports.length ? null : <Link href="/add-proxy" className="btn">{t('empty.buy')}</Link>}>
          <p>{ports.length ? t('empty.text') : t('empty.noPorts')}</p>
        </EmptyState>
      </div>
    );
  } else {
    const { data, totals } = query.data;
    const series = seriesByBucket(data, bucketStarts(resolved.range, filters.granularity));
    const totalIn = formatBytes(totals.bytesIn, language);
    const totalOut = formatBytes(totals.bytesOut, language);
    body = (
      <>
        <div className="card traffic-card" aria-busy={query.isFetching || undefined}>
          <dl className="traffic-totals">
            <div><dt>{t('totals.in')}</dt><dd data-testid="traffic-total-in">{totalIn}</dd></div>
            <div><dt>{t('totals.out')}</dt><dd data-testid="traffic-total-out">{totalOut}</dd></div>
          </dl>
          <TrafficChart series={series} granularity={filters.granularity}
            summary={t('chart.summary', { range: t(`presets.${filters.preset}`), in: totalIn, out: totalOut })} />
        </div>
        <div className="card">
          <h2 className="traffic-card__title">{t('table.title')}</h2>
          <TrafficTable rows={data} granularity={filters.granularity} />
        </div>
      </>
    );
  }

  return (
    <section className="traffic">
      <PageHeader
        title={t('common:nav.traffic')}
        description={t('description')}
        actions={search ? (
          <a className="btn btn--secondary" href={`${API_BASE}/traffic.csv?${search}`} download>
            {t('exportCsv')}
          </a>
        ) : null}
      />
      <MonthUsage />
      <TrafficFilters value={filters} ports={ports} error={rangeError} onChange={onChange} />
      {body}
    </section>
  );
}
