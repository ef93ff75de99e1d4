import { formatUsd } from '../../lib/money';
import { useT } from '../../lib/i18n';
import { useAccountBalance } from './use-balance';
import { icons } from '../../components/ui/icons';

/** The header balance: the USDT balance in dollars, 2 decimals, truncated; '—' while unknown. */
export function BalanceBadge() {
  const { t } = useT('shell');
  const { data } = useAccountBalance();
  const amount = formatUsd(data?.usdt?.balance) ?? '—';
  return (
    <div className="balance-badge" title={t('balanceHint')}>
      <span className="balance-badge__icon">{icons.wallet}</span>
      <span className="balance-badge__text">
        <span className="balance-badge__label">{t('balance')}</span>
        <span className="balance-badge__amount" aria-label={amount === '—' ? t('balanceUnknown') : undefined}>{amount}</span>
      </span>
    </div>
  );
}
