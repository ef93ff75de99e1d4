import { useT } from '../../../lib/i18n';

export type PaymentMethod = 'balance' | 'card' | 'paypal' | 'crypto';

/**
 * The payment method choice. Only the balance works here; card, PayPal and crypto are shown, disabled, until the
 * payments work wires them (they must not pretend to take money).
 */
export function PaymentMethods({ value, onChange }: { value: PaymentMethod; onChange: (m: PaymentMethod) => void }) {
  const { t } = useT('add-proxy');
  const methods: { id: PaymentMethod; enabled: boolean }[] = [
    { id: 'balance', enabled: true }, { id: 'card', enabled: false }, { id: 'paypal', enabled: false }, { id: 'crypto', enabled: false },
  ];
  return (
    <fieldset className="ap-choice">
      <legend className="ap-choice__legend">{t('method.legend')}</legend>
      <div className="ap-choice__options ap-methods">
        {methods.map(({ id, enabled }) => (
          <label key={id} className={`ap-chip${value === id ? ' ap-chip--checked' : ''}${enabled ? '' : ' ap-chip--disabled'}`}>
            <input type="radio" name="payment-method" checked={value === id} disabled={!enabled} onChange={() => onChange(id)} />
            <span className="ap-chip__label">{t(`method.${id}`)}</span>
            {enabled ? null : <span className="ap-chip__hint">{t('method.comingSoon')}</span>}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
