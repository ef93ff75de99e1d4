import { TOP_UP_DEFAULT, TOP_UP_MIN, TOP_UP_PRESETS, type Coin } from '@cellport/shared/constants';
import { useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { useT } from '../../lib/i18n';
import { startPayment, useOfferedMethods, type PaymentMethodId } from '../payments';
import { BalanceSummary } from './balance-summary';
import { parseTopUp } from './parse-top-up';
import './add-funds.css';

type Amount = { preset: number } | { custom: string };

/**
 * The add-funds dialog of spec §2: a method (crypto with bitcoin or usdt, card, PayPal) and an amount of 25, 50,
 * 100, 250 or 500 dollars or a custom one (minimum 1, default 50). Continue opens that method's payment dialog
 * with a top-up order.
 */
export function AddFundsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useT(['add-funds', 'common']);
  const methods = useOfferedMethods();
  const [method, setMethod] = useState<PaymentMethodId>('crypto');
  const [coin, setCoin] = useState<Coin>('btc');
  const [amount, setAmount] = useState<Amount>({ preset: TOP_UP_DEFAULT });
  const [touched, setTouched] = useState(false);
  const ids = { custom: useId(), error: useId() };

  const micro = parseTopUp('preset' in amount ? String(amount.preset) : amount.custom);
  const invalid = micro === null;
  const chosen = methods.includes(method) ? method : methods[0];

  function proceed(event: React.FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (micro === null || !chosen) return;
    onClose();
    const order = { kind: 'topup' as const, amount: micro };
    if (chosen === 'crypto') startPayment({ method: 'crypto', order, coin });
    else startPayment({ method: chosen, order });
  }

  return (
    <Dialog open={open} onClose={onClose} size="md" title={t('title')} description={t('description')}>
      <form className="af" onSubmit={proceed} noValidate>
        <BalanceSummary />
        <fieldset className="af-group">
          <legend className="af-group__legend">{t('method.legend')}</legend>
          <div className="af-options">
            {methods.map((id) => (
              <label key={id} className={`af-option${chosen === id ? ' af-option--on' : ''}`}>
                <input type="radio" name="af-method" value={id} checked={chosen === id} onChange={() => setMethod(id)} />
                <span>{t(`method.${id}`)}</span>
              </label>
            ))}
          </div>
          {!methods.length ? <p className="field__hint">{t('method.loading')}</p> : null}
        </fieldset>

        {chosen === 'crypto' ? (
          <fieldset className="af-group">
            <legend className="af-group__legend">{t('coin.legend')}</legend>
            <div className="af-options">
              {(['btc', 'usdt'] as const).map((id) => (
                <label key={id} className={`af-option${coin === id ? ' af-option--on' : ''}`}>
                  <input type="radio" name="af-coin" value={id} checked={coin === id} onChange={() => setCoin(id)} />
                  <span>{t(`coin.${id}`)}</span>
                </label>
              ))}
            </div>
          </fieldset>
        ) : null}

        <fieldset className="af-group">
          <legend className="af-group__legend">{t('amount.legend')}</legend>
          <div className="af-options af-options--amounts">
            {TOP_UP_PRESETS.map((preset) => (
              <label key={preset} className={`af-option${'preset' in amount && amount.preset === preset ? ' af-option--on' : ''}`}>
                <input type="radio" name="af-amount" value={preset} checked={'preset' in amount && amount.preset === preset}
                  onChange={() => setAmount({ preset })} />
                <span>${preset}</span>
              </label>
            ))}
            <label className={`af-option${'custom' in amount ? ' af-option--on' : ''}`}>
              <input type="radio" name="af-amount" value="custom" checked={'custom' in amount}
                onChange={() => setAmount({ custom: String(TOP_UP_DEFAULT) })} />
              <span>{t('amount.custom')}</span>
            </label>
          </div>
          {'custom' in amount ? (
            <div className="field af-custom">
              <label htmlFor={ids.custom}>{t('amount.customLabel')}</label>
              <div className="af-custom__input">
                <span aria-hidden="true">$</span>
                <input id={ids.custom} inputMode="decimal" autoComplete="off" value={amount.custom}
                  aria-invalid={touched && invalid} aria-describedby={ids.error}
                  onChange={(e) => setAmount({ custom: e.target.value })} onBlur={() => setTouched(true)} />
              </div>
              <p id={ids.error} className={touched && invalid ? 'field__error' : 'field__hint'} role={touched && invalid ? 'alert' : undefined}>
                {touched && invalid ? t('amount.invalid', { min: TOP_UP_MIN }) : t('amount.hint', { min: TOP_UP_MIN })}
              </p>
            </div>
          ) : null}
        </fieldset>

        <div className="af-actions">
          <Button variant="secondary" onClick={onClose}>{t('common:actions.cancel')}</Button>
          <Button type="submit" disabled={!chosen}>{t('continue')}</Button>
        </div>
      </form>
    </Dialog>
  );
}
