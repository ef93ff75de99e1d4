import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'wouter';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { paymentsQuery } from '../../store/catalog-queries';
import { PurchaseRow } from './purchases/purchase-row';
import './purchases/purchases.css';

/** Purchases: every payment of the customer, newest first. */
export default function PurchasesPage() {
  const { t } = useT(['purchases', 'errors']);
  const query = useQuery(paymentsQuery);
  const payments = query.data;
  const sorted = useMemo(() => [...(payments ?? [])].sort((a, b) => b.createdAt.localeCompare(a.createdAt)), [payments]);

  let body;
  if (query.isPending) {
    body = <div className="pu-loading"><Spinner label={t('loading')} size={28} /> {t('loading')}</div>;
  } else if (query.isError) {
    const error = query.error;
    body = (
      <div className="card pu-error" role="alert">
        <p>{error instanceof ApiError ? t(`errors:${error.code}`, { defaultValue: error.message }) : t('errors:INTERNAL')}</p>
        <Button variant="secondary" onClick={() => void query.refetch()}>{t('retry')}</Button>
      </div>
    );
  } else if (!sorted.length) {
    body = (
      <EmptyState title={t('empty.title')} action={<Link href="/add-proxy" className="btn">{t('empty.action')}</Link>}>
        <p>{t('empty.text')}</p>
      </EmptyState>
    );
  } else {
    body = (
      <div className="card pu-card">
        <table className="pu-table">
          <caption className="visually-hidden">{t('table.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('table.date')}</th>
              <th scope="col">{t('table.description')}</th>
              <th scope="col">{t('table.ports')}</th>
              <th scope="col" className="pu-right">{t('table.amount')}</th>
              <th scope="col" className="pu-right">{t('table.discount')}</th>
              <th scope="col">{t('table.status')}</th>
            </tr>
          </thead>
          <tbody>{sorted.map((payment) => <PurchaseRow key={payment._id} payment={payment} />)}</tbody>
        </table>
      </div>
    );
  }

  return (
    <section className="pu-page">
      <PageHeader title={t('title')} description={t('description')} />
      {body}
    </section>
  );
}
