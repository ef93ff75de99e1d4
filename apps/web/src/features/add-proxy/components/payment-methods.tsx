import { useT } from '../../../lib/i18n';
import { useOfferedMethods } from '../../payments';

export type PaymentMethod = 'balance' | 'card' | 'paypal' | 'crypto';

/**
 * The payment method choice: the balance, and card, PayPal and crypto as far as the server offers them
 * (GET /settings); a method it does not offer stays visible, disabled.
 */
export function PaymentMethods({ value, onChange }: { value: PaymentMethod; onChange: (m: PaymentMethod) => void }) {
  const { t } = useT('add-proxy');
  const offered = useOfferedMethods();
  const methods: { id: PaymentMethod; enabled: boolean }[] = (['balance', 'card', 'paypal', 'crypto'] as const)
    .map((id) => ({ id, enabled: id === 'balance' || offered.includes(id) }));
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
