import type { Coin } from '@cellport/shared/constants';
import { useT } from '../../../lib/i18n';

/** Bitcoin or USDT, for a crypto payment (spec §2). */
export function CoinChoice({ value, onChange }: { value: Coin; onChange: (coin: Coin) => void }) {
  const { t } = useT('payments');
  return (
    <fieldset className="pay-choice">
      <legend className="pay-choice__legend">{t('choice.coin')}</legend>
      <div className="pay-choice__options">
        {(['btc', 'usdt'] as const).map((coin) => (
          <label key={coin} className={`pay-choice__option${value === coin ? ' pay-choice__option--on' : ''}`}>
            <input type="radio" name="payment-coin" value={coin} checked={value === coin} onChange={() => onChange(coin)} />
            <span>{t(`coin.${coin}`)}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
