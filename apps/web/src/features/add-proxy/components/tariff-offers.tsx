import type { Tariff } from '@cellport/shared/schemas/catalog';
import { useId } from 'react';
import { useT } from '../../../lib/i18n';
import { formatUsd } from '../../../lib/money';

/**
 * What the chosen tariff offers beyond its price (issue 27, item 8): its volume steps, listed before the customer
 * picks a quantity, and its paid trial as a choice (once per customer; `trialUsed` null while still asking).
 */
export function TariffOffers({ tariff, trial, onTrial, trialUsed }: {
  tariff: Tariff;
  trial: boolean;
  onTrial: (on: boolean) => void;
  trialUsed: boolean | null;
}) {
  const { t } = useT('add-proxy');
  const hintId = useId();
  const { quantity, days } = tariff.discounts;
  if (!tariff.trial && !quantity.length && !days.length) return null;
  return (
    <div className="ap-offers" data-testid="tariff-offers">
      {quantity.length || days.length ? (
        <div className="ap-offers__steps">
          <p className="ap-offers__title">{t('offers.volumeTitle')}</p>
          <ul className="ap-offers__list">
            {quantity.map((s) => <li key={`q${s.min}`}>{t('offers.quantityStep', { count: s.min, percent: s.percent })}</li>)}
            {days.map((s) => <li key={`d${s.min}`}>{t('offers.daysStep', { count: s.min, percent: s.percent })}</li>)}
          </ul>
        </div>
      ) : null}
      {tariff.trial ? (
        <div className="ap-offers__trial">
          <label className="ap-offers__check">
            <input
              type="checkbox" checked={trial} disabled={trialUsed !== false} aria-describedby={hintId}
              onChange={(e) => onTrial(e.target.checked)}
            />
            <span>{t('offers.trialLabel', { count: tariff.trial.hours, price: formatUsd(tariff.trial.price) })}</span>
          </label>
          <p id={hintId} className="field__hint">
            {trialUsed ? t('offers.trialUsed') : t('offers.trialHint', { count: tariff.trial.hours })}
          </p>
        </div>
      ) : null}
    </div>
  );
}
