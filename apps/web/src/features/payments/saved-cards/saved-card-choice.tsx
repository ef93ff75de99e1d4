import type { SavedCard } from '@cellport/shared/schemas/payments';
import { useT } from '../../../lib/i18n';
import { cardExpiry, cardLabel } from './saved-card';

/** The choice value for typing in another card instead of a saved one. */
export const NEW_CARD = 'new';

/**
 * In the card modal, under its "Credit card" heading (so the legend is for screen readers only): pay with one of the
 * saved cards, or enter a new card. Native radios: arrow keys move between them.
 */
export function SavedCardChoice({ cards, value, onChange }: { cards: readonly SavedCard[]; value: string; onChange: (id: string) => void }) {
  const { t } = useT('payments');
  const options = [
    ...cards.map((c) => ({ id: c.id, label: t('savedCards.payWith', { card: cardLabel(c, t('savedCards.unknownBrand')) }), hint: t('savedCards.expires', { date: cardExpiry(c) }) })),
    { id: NEW_CARD, label: t('savedCards.payWithNew'), hint: null },
  ];
  return (
    <fieldset className="pay-choice">
      <legend className="visually-hidden">{t('savedCards.choose')}</legend>
      <div className="pay-choice__options pay-choice__options--stack">
        {options.map((o) => (
          <label key={o.id} className={`pay-choice__option${value === o.id ? ' pay-choice__option--on' : ''}`}>
            <input type="radio" name="saved-card" value={o.id} checked={value === o.id} onChange={() => onChange(o.id)} />
            <span>{o.label}</span>
            {o.hint ? <span className="pay-choice__hint">{o.hint}</span> : null}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
