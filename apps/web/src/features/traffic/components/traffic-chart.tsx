import type { TrafficGranularity } from '@cellport/shared/schemas/traffic';
import type { Language } from '@cellport/shared/constants';
import { formatBytes } from '../../../lib/bytes';
import { htmlLang, useT } from '../../../lib/i18n';
import { fraction, maxValue, type BucketTotal } from '../lib/series';

const W = 1000;
const H = 240;

/** The label of a bucket: hours in local time, days as the UTC date the server bucketed them by. */
export function bucketLabel(iso: string, granularity: TrafficGranularity, language: Language, long = false): string {
  const options: Intl.DateTimeFormatOptions = granularity === 'hour'
    ? { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }
    : { month: 'short', day: 'numeric', ...(long ? { year: 'numeric' } : {}), timeZone: 'UTC' };
  return new Intl.DateTimeFormat(htmlLang(language), options).format(new Date(iso));
}

/**
 * Bytes in and out per bucket as paired bars: our own SVG (no chart library to download for one chart). The bars
 * stretch to the card's width; the labels are HTML around it so they stay readable on a phone. Screen readers get
 * a one-line summary and the table below, which lists every value.
 */
export function TrafficChart({ series, granularity, summary }: { series: BucketTotal[]; granularity: TrafficGranularity; summary: string }) {
  const { t, language } = useT('traffic');
  const max = maxValue(series);
  const slot = W / Math.max(series.length, 1);
  const bar = Math.max(slot * 0.38, 0.5);
  const ticks = series.length > 1 ? [series[0]!, series[Math.floor((series.length - 1) / 2)]!, series[series.length - 1]!] : series;
  return (
    <figure className="traffic-chart">
      <div className="traffic-chart__legend" aria-hidden="true">
        <span><i className="traffic-chart__swatch traffic-chart__swatch--in" />{t('in')}</span>
        <span><i className="traffic-chart__swatch traffic-chart__swatch--out" />{t('out')}</span>
        <span className="traffic-chart__max">{t('chart.max', { value: formatBytes(max, language) })}</span>
      </div>
      <svg className="traffic-chart__svg" viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" role="img" aria-label={summary}>
        {[0.25, 0.5, 0.75].map((y) => <line key={y} x1="0" x2={W} y1={H * y} y2={H * y} className="traffic-chart__grid" />)}
        {series.map((s, i) => {
          const hIn = fraction(s.bytesIn, max) * H;
          const hOut = fraction(s.bytesOut, max) * H;
          const x = i * slot + slot * 0.1;
          return (
            <g key={s.bucket}>
              <title>{`${bucketLabel(s.bucket, granularity, language, true)} — ${t('in')}: ${formatBytes(s.bytesIn, language)}, ${t('out')}: ${formatBytes(s.bytesOut, language)}`}</title>
              <rect x={i * slot} y="0" width={slot} height={H} fill="transparent" />
              <rect x={x} y={H - hIn} width={bar} height={hIn} className="traffic-chart__bar--in" />
              <rect x={x + bar} y={H - hOut} width={bar} height={hOut} className="traffic-chart__bar--out" />
            </g>
          );
        })}
        <line x1="0" x2={W} y1={H - 0.5} y2={H - 0.5} className="traffic-chart__axis" />
      </svg>
      <div className="traffic-chart__ticks" aria-hidden="true">
        {ticks.map((s, i) => <span key={`${s.bucket}-${i}`}>{bucketLabel(s.bucket, granularity, language)}</span>)}
      </div>
    </figure>
  );
}
