import { formatUsd } from '../../../lib/money';
import { useT } from '../../../lib/i18n';
import type { PriceSummary } from '../lib/price-summary';

/** Subtotal, discount, total and the balance after paying, all from integer minor units. */
export function PriceSummaryCard({ summary, balance }: { summary: PriceSummary; balance: string | null }) {
  const { t } = useT('add-proxy');
  return (
    <dl className="ap-summary">
      <div><dt>{t('summary.subtotal')}</dt><dd>{formatUsd(summary.subtotal)}</dd></div>
      <div><dt>{t('summary.discount')}</dt><dd>{summary.discount > 0n ? `−${formatUsd(summary.discount)}` : formatUsd(0n)}</dd></div>
      <div className="ap-summary__total"><dt>{t('summary.total')}</dt><dd data-testid="order-total">{formatUsd(summary.total)}</dd></div>
      <div><dt>{t('summary.balance')}</dt><dd>{balance === null ? '—' : formatUsd(balance)}</dd></div>
      <div className={summary.short ? 'ap-summary__short' : undefined}>
        <dt>{t('summary.balanceAfter')}</dt>
        <dd>{summary.balanceAfter === null ? '—' : formatUsd(summary.balanceAfter)}</dd>
      </div>
    </dl>
  );
}
