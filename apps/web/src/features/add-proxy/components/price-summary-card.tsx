import { formatUsd } from '../../../lib/money';
import { useT } from '../../../lib/i18n';
import { BalanceEffectRows } from '../../payments';
import type { PriceSummary } from '../lib/price-summary';

/** Subtotal, the volume discount (when a step applies), the coupon's discount, total, and what the chosen method does to the balance, all from integer minor units. */
export function PriceSummaryCard({ summary }: { summary: PriceSummary }) {
  const { t } = useT('add-proxy');
  return (
    <dl className="ap-summary">
      <div><dt>{t('summary.subtotal')}</dt><dd>{formatUsd(summary.subtotal)}</dd></div>
      {summary.volumeDiscount > 0n ? (
        <div className="ap-summary__volume" data-testid="volume-discount">
          <dt>{t('summary.volume', { percent: summary.volumePercent })}</dt><dd>−{formatUsd(summary.volumeDiscount)}</dd>
        </div>
      ) : null}
      <div><dt>{t('summary.discount')}</dt><dd>{summary.discount > 0n ? `−${formatUsd(summary.discount)}` : formatUsd(0n)}</dd></div>
      <div className="ap-summary__total"><dt>{t('summary.total')}</dt><dd data-testid="order-total">{formatUsd(summary.total)}</dd></div>
      <BalanceEffectRows effect={summary.effect} shortClassName="ap-summary__short" />
    </dl>
  );
}
