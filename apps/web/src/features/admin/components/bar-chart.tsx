import { useId } from 'react';
import { useT } from '../../../lib/i18n';
import { barShares, labelledIndexes } from '../lib/chart-scale';

export interface BarDatum { key: string; label: string; value: bigint; display: string; extra?: string }

const WIDTH = 640;
const HEIGHT = 200;
const AXIS = 24;

/**
 * Our own bar chart: an SVG image with a title and a summary for screen readers, each bar with a tooltip, and the
 * same numbers as a table (the text alternative) under a disclosure.
 */
export function BarChart({ title, summary, data, valueHeader, labelHeader, extraHeader }: {
  title: string;
  summary: string;
  data: BarDatum[];
  labelHeader: string;
  valueHeader: string;
  extraHeader?: string;
}) {
  const { t } = useT('admin');
  const titleId = useId();
  const descId = useId();
  const shares = barShares(data.map((d) => d.value));
  const labelled = labelledIndexes(data.length, 8);
  const slot = data.length ? WIDTH / data.length : WIDTH;
  const barWidth = Math.max(2, Math.min(48, slot * 0.7));
  return (
    <figure className="admin-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT + AXIS}`} role="img" aria-labelledby={titleId} aria-describedby={descId} className="admin-chart__svg">
        <title id={titleId}>{title}</title>
        <desc id={descId}>{summary}</desc>
        <line x1="0" x2={WIDTH} y1={HEIGHT} y2={HEIGHT} className="admin-chart__axis" />
        {data.map((d, i) => {
          const h = Math.round(shares[i]! * (HEIGHT - 8));
          const x = i * slot + (slot - barWidth) / 2;
          return (
            <g key={d.key}>
              <rect x={x} y={HEIGHT - h} width={barWidth} height={Math.max(h, d.value > 0n ? 1 : 0)} className="admin-chart__bar" rx="2">
                <title>{`${d.label}: ${d.display}`}</title>
              </rect>
              {labelled.has(i) ? (
                <text x={i * slot + slot / 2} y={HEIGHT + 16} textAnchor="middle" className="admin-chart__label">{d.label}</text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <details className="admin-chart__table">
        <summary>{t('chart.showTable')}</summary>
        <div className="admin-table-wrap" tabIndex={0}>
          <table className="admin-table">
            <caption className="visually-hidden">{title}</caption>
            <thead><tr><th scope="col">{labelHeader}</th><th scope="col">{valueHeader}</th>{extraHeader ? <th scope="col">{extraHeader}</th> : null}</tr></thead>
            <tbody>
              {data.map((d) => (
                <tr key={d.key}><th scope="row">{d.label}</th><td className="num">{d.display}</td>{extraHeader ? <td className="num">{d.extra}</td> : null}</tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
