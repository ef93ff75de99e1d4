import { CATALOG_LIMITS } from '@cellport/shared/schemas/catalog-constants';
import { useId } from 'react';
import { useT } from '../../../lib/i18n';

/**
 * How many ports, with the live availability beside it. `available` null = still counting; the upper bound is the
 * smaller of the availability and the per-order limit.
 */
export function QuantityField({ value, onChange, available, counting }: {
  value: number;
  onChange: (n: number) => void;
  available: number | null;
  counting: boolean;
}) {
  const { t } = useT('add-proxy');
  const id = useId();
  const hintId = useId();
  const max = Math.max(CATALOG_LIMITS.modemCountMin, Math.min(CATALOG_LIMITS.modemCountMax, available ?? CATALOG_LIMITS.modemCountMax));
  const set = (n: number) => onChange(Math.min(max, Math.max(CATALOG_LIMITS.modemCountMin, Number.isFinite(n) ? Math.trunc(n) : 1)));
  const tooMany = available !== null && value > available;

  return (
    <div className="field ap-quantity">
      <label htmlFor={id}>{t('quantity.label')}</label>
      <div className="ap-quantity__row">
        <button type="button" className="btn btn--secondary" aria-label={t('quantity.less')} onClick={() => set(value - 1)} disabled={value <= 1}>−</button>
        <input
          id={id} type="number" inputMode="numeric" min={1} max={max} value={value}
          aria-describedby={hintId} aria-invalid={tooMany || undefined}
          onChange={(e) => set(e.target.valueAsNumber)}
        />
        <button type="button" className="btn btn--secondary" aria-label={t('quantity.more')} onClick={() => set(value + 1)} disabled={value >= max}>+</button>
      </div>
      <p id={hintId} className={available === 0 || tooMany ? 'field__error' : 'field__hint'} aria-live="polite" data-testid="availability">
        {available === null
          ? (counting ? t('quantity.counting') : '')
          : available === 0 ? t('quantity.soldOut') : t('quantity.available', { count: available })}
      </p>
    </div>
  );
}
