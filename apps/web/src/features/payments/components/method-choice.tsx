import { useT } from '../../../lib/i18n';
import { useOfferedMethods } from '../flow/offered-methods';
import type { PaymentMethodId } from '../flow/payment-order';

export type MethodOrBalance = PaymentMethodId | 'balance';

/** The account balance or one of the payment methods the server offers (card, PayPal, crypto). */
export function MethodChoice({ value, onChange }: { value: MethodOrBalance; onChange: (method: MethodOrBalance) => void }) {
  const { t } = useT('payments');
  const offered = useOfferedMethods();
  const methods: MethodOrBalance[] = ['balance', ...(['card', 'paypal', 'crypto'] as const).filter((m) => offered.includes(m))];
  return (
    <fieldset className="pay-choice">
      <legend className="pay-choice__legend">{t('choice.method')}</legend>
      <div className="pay-choice__options">
        {methods.map((method) => (
          <label key={method} className={`pay-choice__option${value === method ? ' pay-choice__option--on' : ''}`}>
            <input type="radio" name="payment-method" value={method} checked={value === method} onChange={() => onChange(method)} />
            <span>{t(method === 'balance' ? 'choice.balance' : `method.${method}`)}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
