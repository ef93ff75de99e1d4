import { useT } from '../../../lib/i18n';
import { formatCoin, formatMinor, formatUsd } from '../../../lib/money';
import { useAccount } from '../../../store/catalog-queries';
import { useBtcRate } from '../../../store/exchange-rates';
import { totalBalanceDollars } from '../lib/total-balance';

/** Balance: USDT in dollars (2 decimals), BTC (8 decimals), and the total at the BTC rate when a rate is known. */
export function BalanceCard() {
  const { t } = useT('dashboard');
  const account = useAccount();
  const rate = useBtcRate();
  const total = account ? totalBalanceDollars(account.usdt.balance, account.btc.balance, rate) : null;
  return (
    <article className="card dash-balance" aria-labelledby="dash-balance-title">
      <h2 id="dash-balance-title" className="dash-card__title">{t('balance.title')}</h2>
      <p className="dash-balance__amount" data-testid="dashboard-balance">{formatUsd(account?.usdt.balance) ?? '—'}</p>
      <dl className="dash-balance__coins">
        <div><dt>USDT</dt><dd>{formatCoin(account?.usdt.balance, 'usdt') ?? '—'}</dd></div>
        <div><dt>BTC</dt><dd>{formatCoin(account?.btc.balance, 'btc') ?? '—'}</dd></div>
        {total !== null ? <div><dt>{t('balance.total')}</dt><dd>${formatMinor(total, 1n, 0)}</dd></div> : null}
      </dl>
      {account ? null : <p className="dash-card__hint">{t('balance.unavailable')}</p>}
    </article>
  );
}
