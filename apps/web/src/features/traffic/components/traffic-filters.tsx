import type { TrafficGranularity } from '@cellport/shared/schemas/traffic';
import { TRAFFIC_GRANULARITIES } from '@cellport/shared/schemas/traffic-constants';
import { useId } from 'react';
import { useT } from '../../../lib/i18n';
import type { ModemView } from '../../../store/store-types';
import { RANGE_PRESETS, type RangePreset } from '../lib/range';

export interface TrafficFilterState {
  preset: RangePreset;
  custom: { from: string; to: string };
  granularity: TrafficGranularity;
  portId: string | null;
}

/** Range (presets or custom dates), granularity and port. Plain labelled native controls: keyboard and phone friendly. */
export function TrafficFilters({ value, ports, error, onChange }: {
  value: TrafficFilterState; ports: ModemView[]; error: string | null; onChange: (next: TrafficFilterState) => void;
}) {
  const { t } = useT('traffic');
  const id = useId();
  return (
    <form className="card traffic-filters" onSubmit={(e) => e.preventDefault()} aria-label={t('filters.label')}>
      <fieldset className="traffic-filters__presets">
        <legend>{t('filters.range')}</legend>
        <div className="traffic-segmented">
          {RANGE_PRESETS.map((preset) => (
            <label key={preset} className="traffic-segmented__item">
              <input
                type="radio"
                name={`${id}-preset`}
                value={preset}
                checked={value.preset === preset}
                onChange={() => onChange({ ...value, preset })}
              />
              <span>{t(`presets.${preset}`)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {value.preset === 'custom' ? (
        <div className="traffic-filters__dates">
          <div className="field">
            <label htmlFor={`${id}-from`}>{t('filters.from')}</label>
            <input id={`${id}-from`} type="date" value={value.custom.from}
              aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined}
              onChange={(e) => onChange({ ...value, custom: { ...value.custom, from: e.target.value } })} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-to`}>{t('filters.to')}</label>
            <input id={`${id}-to`} type="date" value={value.custom.to}
              aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined}
              onChange={(e) => onChange({ ...value, custom: { ...value.custom, to: e.target.value } })} />
          </div>
          {error ? <p id={`${id}-error`} className="traffic-filters__error" role="alert">{error}</p> : null}
        </div>
      ) : null}
      <div className="traffic-filters__row">
        <div className="field">
          <label htmlFor={`${id}-granularity`}>{t('filters.granularity')}</label>
          <select id={`${id}-granularity`} value={value.granularity}
            onChange={(e) => onChange({ ...value, granularity: e.target.value as TrafficGranularity })}>
            {TRAFFIC_GRANULARITIES.map((g) => <option key={g} value={g}>{t(`granularity.${g}`)}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-port`}>{t('filters.port')}</label>
          <select id={`${id}-port`} value={value.portId ?? ''} onChange={(e) => onChange({ ...value, portId: e.target.value || null })}>
            <option value="">{t('filters.allPorts')}</option>
            {ports.map((p) => <option key={p._id} value={p._id}>{p.modem_name}</option>)}
          </select>
        </div>
      </div>
    </form>
  );
}
