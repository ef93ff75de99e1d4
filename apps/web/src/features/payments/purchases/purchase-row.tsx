import type { Payment } from '@cellport/shared/schemas/catalog';
import { dateTime } from '../../../lib/dates';
import { useT } from '../../../lib/i18n';
import { formatUsd } from '../../../lib/money';

const KNOWN_STATUSES = new Set(['completed', 'pending', 'failed', 'cancelled', 'expired', 'refunded']);
const KNOWN_PROVIDERS = new Set(['balance', 'card', 'stripe', 'paypal', 'crypto']);

/** One payment: a table row on wide screens, a card on phones (purchases.css, data-label). */
export function PurchaseRow({ payment }: { payment: Payment }) {
  const { t, language } = useT('purchases');
  const status = KNOWN_STATUSES.has(payment.status) ? t(`status.${payment.status}`) : payment.status;
  const provider = payment.provider.toLowerCase();
  const discount = BigInt(payment.discount);
  return (
    <tr className="pu-row" data-testid="purchase-row">
      <td className="pu-cell" data-label={t('table.date')}>
        <time dateTime={payment.createdAt}>{dateTime(payment.createdAt, language)}</time>
      </td>
      <td className="pu-cell pu-cell--desc" data-label={t('table.description')}>
        <span className="pu-kind">{t(`kind.${payment.kind}`)}</span>
        <span>{payment.description}</span>
        <span className="pu-muted">{KNOWN_PROVIDERS.has(provider) ? t(`provider.${provider}`) : payment.provider}</span>
      </td>
      <td className="pu-cell" data-label={t('table.ports')}>
        {/* A top-up buys no port: a dash, not '0 ports'. */}
        {payment.kind === 'topup' ? '—'
          : payment.ports.length ? payment.ports.map((p) => p.modem_name).join(', ') : t('portsCount', { count: payment.modemCount })}
      </td>
      <td className="pu-cell pu-cell--money" data-label={t('table.amount')} data-testid="purchase-amount">{formatUsd(payment.amount)}</td>
      <td className="pu-cell pu-cell--money" data-label={t('table.discount')}>
        {discount > 0n ? <>−{formatUsd(discount)}{payment.coupon ? <span className="pu-muted"> ({payment.coupon})</span> : null}</> : '—'}
      </td>
      <td className="pu-cell" data-label={t('table.status')}>
        <span className={`pu-status pu-status--${KNOWN_STATUSES.has(payment.status) ? payment.status : 'other'}`}>{status}</span>
      </td>
    </tr>
  );
}
