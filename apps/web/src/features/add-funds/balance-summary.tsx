import { useT } from '../../lib/i18n';
import { formatCoin } from '../../lib/money';
import { useAccount } from '../../store/catalog-queries';
import { useBtcRate } from '../../store/exchange-rates';
import { totalBalanceDollars } from '../payments';

/**
 * The balances in the add-funds dialog (spec §9): USDT with 2 decimals, BTC with 8, and the total
 * USDT + BTC × rate truncated to whole dollars — shown only when the rate is known (a rate failure is silent).
 */
export function BalanceSummary() {
  const { t } = useT('add-funds');
  const account = useAccount();
  const rate = useBtcRate();
  if (!account) return null;
  const total = totalBalanceDollars(account.usdt.balance, account.btc.balance, rate);
  return (
    <dl className="af-balance" data-testid="add-funds-balance">
      <div><dt>USDT</dt><dd>{formatCoin(account.usdt.balance, 'usdt')}</dd></div>
      <div><dt>BTC</dt><dd>{formatCoin(account.btc.balance, 'btc')}</dd></div>
      {total !== null ? <div><dt>{t('balance.total')}</dt><dd data-testid="total-balance">${total.toLocaleString('en-US')}</dd></div> : null}
    </dl>
  );
}
