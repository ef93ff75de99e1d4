import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n';
import type { OffersDraft, OffersErrors, StepDraft } from '../lib/tariff-offers';

/**
 * The tariff form's paid trial and volume-discount steps (issue 27, item 8), in its own fieldset: the trial's hours and
 * price, and two lists of steps (from N ports, from N days paid at once) with a percent each.
 */
export function TariffOffersFields({ draft, onChange, errors }: { draft: OffersDraft; onChange: (d: OffersDraft) => void; errors: OffersErrors }) {
  const { t } = useT('admin');
  const set = <K extends keyof OffersDraft>(key: K, value: OffersDraft[K]) => onChange({ ...draft, [key]: value });
  const error = (e: string | undefined) => (e ? t(`pricing.errors.${e}`) : undefined);
  return (
    <fieldset className="admin-fieldset" data-testid="tariff-offers-fields">
      <legend>{t('pricing.legend')}</legend>
      <label className="admin-check">
        <input type="checkbox" checked={draft.trialOn} onChange={(e) => set('trialOn', e.target.checked)} /> {t('pricing.trialOn')}
      </label>
      {draft.trialOn ? (
        <div className="admin-form-grid">
          <TextField label={t('pricing.trialHours')} value={draft.trialHours} inputMode="numeric" hint={t('pricing.trialHoursHint')}
            onChange={(e) => set('trialHours', e.target.value)} error={error(errors.trialHours)} />
          <TextField label={t('pricing.trialPrice')} value={draft.trialPrice} inputMode="decimal" hint={t('pricing.trialPriceHint')}
            onChange={(e) => set('trialPrice', e.target.value)} error={error(errors.trialPrice)} />
        </div>
      ) : null}
      <StepsList basis="quantity" steps={draft.quantity} onChange={(s) => set('quantity', s)} error={error(errors.quantity)} />
      <StepsList basis="days" steps={draft.days} onChange={(s) => set('days', s)} error={error(errors.days)} />
    </fieldset>
  );
}

function StepsList({ basis, steps, onChange, error }: { basis: 'quantity' | 'days'; steps: StepDraft[]; onChange: (s: StepDraft[]) => void; error: string | undefined }) {
  const { t } = useT('admin');
  const change = (i: number, patch: Partial<StepDraft>) => onChange(steps.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  return (
    <div className="admin-steps" role="group" aria-label={t(`pricing.${basis}Title`)}>
      <p className="admin-steps__title">{t(`pricing.${basis}Title`)}</p>
      {steps.map((s, i) => (
        <div className="admin-steps__row" key={i}>
          <TextField label={t(`pricing.${basis}Min`)} value={s.min} inputMode="numeric" onChange={(e) => change(i, { min: e.target.value })} />
          <TextField label={t('pricing.percent')} value={s.percent} inputMode="numeric" onChange={(e) => change(i, { percent: e.target.value })} />
          <Button variant="secondary" onClick={() => onChange(steps.filter((_, j) => j !== i))}
            aria-label={t('pricing.removeStep', { n: i + 1 })}>{t('pricing.remove')}</Button>
        </div>
      ))}
      {error ? <p className="field__error" role="alert">{error}</p> : null}
      <Button variant="secondary" onClick={() => onChange([...steps, { min: '', percent: '' }])}>{t(`pricing.${basis}Add`)}</Button>
    </div>
  );
}
