import type { PendingPayment } from '@cellport/shared/schemas/payments';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { EmptyState } from '../../components/ui/empty-state';
import { icons } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { dateTime } from '../../lib/dates';
import { useT } from '../../lib/i18n';
import { formatUsd } from '../../lib/money';
import { toast } from '../../lib/toast';
import { pendingCryptoPaymentStore } from '../../store/pending-crypto-payment';
import { pendingPaymentsQuery } from '../../store/catalog-queries';
import { pendingPaymentsStore } from '../../store/pending-payments';
import { cancelPendingPayment } from './api/crypto-payments';
import { paymentErrorText } from './lib/error-text';
import { productLine } from './lib/product-line';
import './payments.css';
import './pending/pending-payments.css';

/** Pending Payments: what the customer started and has not paid yet, with a way to cancel each (confirmed first). */
export default function PendingPaymentsPage() {
  const { t, language } = useT(['payments', 'common', 'errors']);
  const query = useQuery(pendingPaymentsQuery);
  const queryClient = useQueryClient();
  const list = query.data ?? [];
  const [confirming, setConfirming] = useState<PendingPayment | null>(null);
  const [busy, setBusy] = useState(false);

  async function cancel(payment: PendingPayment) {
    setBusy(true);
    try {
      await cancelPendingPayment(payment._id);
      pendingPaymentsStore(queryClient).cancel(payment._id);
      if (pendingCryptoPaymentStore.getState().pendingCryptoPayment?._id === payment._id) pendingCryptoPaymentStore.getState().cancel();
      toast.success(t('pending.cancelled'));
      void queryClient.invalidateQueries({ queryKey: ['pending-payments'] });
    } catch (error) {
      toast.error(paymentErrorText(t, error));
    }
    setBusy(false);
    setConfirming(null);
  }

  let body;
  if (query.isPending) body = <div className="pp-loading"><Spinner size={28} label={t('pending.loading')} /><span aria-hidden="true">{t('pending.loading')}</span></div>;
  else if (query.isError) {
    body = (
      <div className="card" role="alert">
        <p>{paymentErrorText(t, query.error)}</p>
        <Button variant="secondary" onClick={() => void query.refetch()}>{t('common:actions.retry')}</Button>
      </div>
    );
  } else if (!list.length) {
    body = (
      <div className="card">
        <EmptyState icon={icons.pendingPayments} title={t('pending.emptyTitle')}
          action={<Link href="/billing-renewals" className="btn btn--secondary">{t('common:nav.billing')}</Link>}>
          <p>{t('pending.emptyText')}</p>
        </EmptyState>
      </div>
    );
  } else {
    body = (
      <div className="card pp-table-card">
        <table className="pp-table">
          <caption className="visually-hidden">{t('pending.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('pending.product')}</th>
              <th scope="col">{t('pending.method')}</th>
              <th scope="col" className="pp-right">{t('pending.amount')}</th>
              <th scope="col">{t('pending.created')}</th>
              <th scope="col">{t('pending.expires')}</th>
              <th scope="col"><span className="visually-hidden">{t('pending.actions')}</span></th>
            </tr>
          </thead>
          <tbody>
            {list.map((p) => (
              <tr key={p._id} data-testid="pending-row">
                <td data-label={t('pending.product')}>{productLine(t, language, p)}</td>
                <td data-label={t('pending.method')}>{t(`method.${p.provider}`)}{p.coin ? ` · ${t(`coin.${p.coin}`)}` : ''}</td>
                <td data-label={t('pending.amount')} className="pp-right">{formatUsd(p.amount)}</td>
                <td data-label={t('pending.created')}>{dateTime(p.createdAt, language)}</td>
                <td data-label={t('pending.expires')}>{p.expiresAt ? dateTime(p.expiresAt, language) : '—'}</td>
                <td className="pp-right">
                  <Button variant="secondary" size="sm" onClick={() => setConfirming(p)}
                    aria-label={t('pending.cancelOne', { product: productLine(t, language, p) })}>
                    {t('pending.cancel')}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }

  return (
    <section>
      <PageHeader title={t('common:nav.pendingPayments')} description={t('pending.description')} />
      {body}
      <Dialog open={confirming !== null} onClose={() => setConfirming(null)} size="sm" title={t('pending.confirmTitle')}
        description={confirming ? t('pending.confirmText', { product: productLine(t, language, confirming), amount: formatUsd(confirming.amount) }) : undefined}
        footer={<>
          <Button variant="secondary" onClick={() => setConfirming(null)} disabled={busy}>{t('pending.keep')}</Button>
          <Button variant="danger" busy={busy} onClick={() => confirming && void cancel(confirming)}>{t('pending.confirmYes')}</Button>
        </>} />
    </section>
  );
}
