import type { AdminSubscription } from '@cellport/shared/schemas/subscriptions';
import { useState } from 'react';
import { Link } from 'wouter';
import { useT } from '../../../lib/i18n';
import { cancelSubscription, useAdminSubscriptions, type AdminSubscriptionsFilter } from '../api/subscriptions';
import { useAdminMutation } from '../api/use-admin-mutation';
import { shortDate, usd } from '../lib/format';
import { ConfirmDialog } from './confirm-dialog';
import { EmptyRow, QueryView } from './query-view';
import { StatusBadge } from './status-badge';

/** Stripe writes card networks in lower case (visa, mastercard); people write them with a capital. */
const capitalized = (brand: string) => brand.charAt(0).toUpperCase() + brand.slice(1);

const TONE = { active: 'ok', past_due: 'warn', canceled: 'neutral', incomplete: 'neutral' } as const;

/**
 * Card subscriptions for the console (all, or one customer's with `filter.userId`): ports, amount, card, next charge,
 * status; "End now" stops the charges at once after a reason for the audit log.
 */
export function SubscriptionsTable({ filter, showCustomer }: { filter: AdminSubscriptionsFilter; showCustomer: boolean }) {
  const { t, language } = useT('admin');
  const subs = useAdminSubscriptions(filter);
  const [ending, setEnding] = useState<AdminSubscription | null>(null);
  const end = useAdminMutation(cancelSubscription, { successKey: 'subscriptions.ended', onSuccess: () => setEnding(null) });
  const headers = [
    ...(showCustomer ? [t('fields.customer')] : []), t('subscriptions.ports'), t('fields.amount'), t('subscriptions.card'),
    t('subscriptions.nextCharge'), t('fields.status'), t('subscriptions.actions'),
  ];
  return (
    <QueryView query={subs}>
      {(data) => (
        <>
          <div className="admin-table-wrap" tabIndex={0}>
            <table className="admin-table" data-testid="admin-subscriptions">
              <thead><tr>{headers.map((h) => <th key={h} scope="col">{h}</th>)}</tr></thead>
              <tbody>
                {data.items.length === 0 ? <EmptyRow colSpan={headers.length}>{t('subscriptions.empty')}</EmptyRow> : null}
                {data.items.map((s) => (
                  <tr key={s.id}>
                    {showCustomer ? <td><Link href={`/customers/${s.userId}`}>{s.email}</Link></td> : null}
                    <td>{s.ports.map((p) => p.name).join(', ') || '—'}</td>
                    <td className="num">{t('subscriptions.perPeriod', { amount: usd(s.amount), days: s.intervalDays })}</td>
                    <td>{s.card ? `${capitalized(s.card.brand)} ••••\u00a0${s.card.last4}` : '—'}</td>
                    <td>{s.nextChargeAt ? shortDate(s.nextChargeAt, language) : '—'}</td>
                    <td>
                      <StatusBadge tone={TONE[s.status]}>
                        {s.status === 'active' && s.cancelAtPeriodEnd && s.currentPeriodEnd
                          ? t('subscriptions.status.ending', { date: shortDate(s.currentPeriodEnd, language) })
                          : t(`subscriptions.status.${s.status}`)}
                      </StatusBadge>
                    </td>
                    <td>
                      {s.status === 'canceled' ? '—' : (
                        <button type="button" className="btn btn--secondary btn--sm" onClick={() => setEnding(s)}
                          aria-label={t('subscriptions.endFor', { email: s.email, ports: s.ports.map((p) => p.name).join(', ') })}>
                          {t('subscriptions.end')}
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ConfirmDialog
            open={ending !== null} title={t('subscriptions.endTitle')} description={t('subscriptions.endText')}
            confirmLabel={t('subscriptions.end')} reason="required" danger busy={end.isPending}
            onConfirm={(reason) => { if (ending) end.mutate({ id: ending.id, reason }); }}
            onClose={() => setEnding(null)}
          />
        </>
      )}
    </QueryView>
  );
}
