import { useId } from 'react';
import { useT } from '../../../lib/i18n';
import { barShares, labelledIndexes } from '../lib/chart-scale';

export interface BarDatum { key: string; label: string; value: bigint; display: string; extra?: string }

const WIDTH = 640;
const HEIGHT = 200;
const TOP = 18;
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
  const labelled = labelledIndexes(data.length, 6);
  const slot = data.length ? WIDTH / data.length : WIDTH;
  const barWidth = Math.max(2, Math.min(48, slot * 0.7));
  // Text at the chart's edges is anchored inwards, so "Oct 24" or "$2.00" is never cut off by the frame.
  const textAt = (i: number) => {
    const middle = i * slot + slot / 2;
    if (data.length > 1 && i === 0 && middle < 40) return { x: 0, textAnchor: 'start' as const };
    if (data.length > 1 && i === data.length - 1 && WIDTH - middle < 40) return { x: WIDTH, textAnchor: 'end' as const };
    return { x: middle, textAnchor: 'middle' as const };
  };
  return (
    <figure className="admin-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT + AXIS}`} role="img" aria-labelledby={titleId} aria-describedby={descId} className="admin-chart__svg">
        <title id={titleId}>{title}</title>
        <desc id={descId}>{summary}</desc>
        <line x1="0" x2={WIDTH} y1={HEIGHT} y2={HEIGHT} className="admin-chart__axis" />
        {data.map((d, i) => {
          const h = Math.round(shares[i]! * (HEIGHT - TOP));
          const x = i * slot + (slot - barWidth) / 2;
          return (
            <g key={d.key}>
              <rect x={x} y={HEIGHT - h} width={barWidth} height={Math.max(h, d.value > 0n ? 1 : 0)} className="admin-chart__bar" rx="2">
                <title>{`${d.label}: ${d.display}`}</title>
              </rect>
              {/* Values above the bars when there are few, else above the tallest one: the chart reads without the table. */}
              {d.value > 0n && (data.length <= 12 || shares[i] === 1) ? (
                <text {...textAt(i)} y={Math.max(12, HEIGHT - h - 6)} className="admin-chart__value" aria-hidden="true">{d.display}</text>
              ) : null}
              {labelled.has(i) ? (
                <text {...textAt(i)} y={HEIGHT + 16} className="admin-chart__label">{d.label}</text>
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
