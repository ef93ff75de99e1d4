import { useQuery } from '@tanstack/react-query';
import { Link, useSearch } from 'wouter';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { icons } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { dateTime } from '../../lib/dates';
import { useT } from '../../lib/i18n';
import { formatUsd } from '../../lib/money';
import { invoicePdfUrl, invoicesQuery } from './api/invoices';
import { InvoiceDocument } from './invoices/invoice-document';
import { paymentErrorText } from './lib/error-text';
import './pending/pending-payments.css';
import './invoices/invoices.css';

/** Invoices: the numbered invoice of every completed payment; ?invoice=<id> shows one as a printable page. */
export default function InvoicesPage() {
  const { t, language } = useT(['payments', 'common', 'errors']);
  const query = useQuery(invoicesQuery);
  const openId = new URLSearchParams(useSearch()).get('invoice');

  if (query.isPending) {
    return <section><PageHeader title={t('common:nav.invoices')} /><div className="pp-loading"><Spinner size={28} label={t('invoices.loading')} /><span aria-hidden="true">{t('invoices.loading')}</span></div></section>;
  }
  if (query.isError) {
    return (
      <section>
        <PageHeader title={t('common:nav.invoices')} />
        <div className="card" role="alert"><p>{paymentErrorText(t, query.error)}</p>
          <Button variant="secondary" onClick={() => void query.refetch()}>{t('common:actions.retry')}</Button></div>
      </section>
    );
  }

  const open = openId ? query.data.find((i) => i._id === openId) : undefined;
  if (open) {
    return (
      <section className="inv-page">
        <PageHeader title={t(open.document === 'receipt' ? 'invoices.receiptTitle' : 'invoices.invoiceTitle', { number: open.number })}
          actions={<div className="inv-actions">
            <Link href="/invoices" className="btn btn--secondary">{t('invoices.back')}</Link>
            <Button variant="secondary" onClick={() => window.print()}>{t('invoices.print')}</Button>
            <a className="btn" href={invoicePdfUrl(open._id, language)} download={`${open.number}.pdf`}>{t('invoices.downloadPdf')}</a>
          </div>} />
        <InvoiceDocument invoice={open} />
      </section>
    );
  }

  return (
    <section>
      <PageHeader title={t('common:nav.invoices')} description={t('invoices.description')} />
      {!query.data.length ? (
        <div className="card">
          <EmptyState icon={icons.invoices} title={t('invoices.emptyTitle')}
            action={<Link href="/add-proxy" className="btn btn--secondary">{t('common:nav.addProxy')}</Link>}>
            <p>{t('invoices.emptyText')}</p>
          </EmptyState>
        </div>
      ) : (
        <div className="card pp-table-card">
          <table className="pp-table">
            <caption className="visually-hidden">{t('invoices.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('invoices.number')}</th>
                <th scope="col">{t('invoices.date')}</th>
                <th scope="col">{t('invoices.description_col')}</th>
                <th scope="col">{t('invoices.paidWith')}</th>
                <th scope="col" className="pp-right">{t('invoices.amount')}</th>
                <th scope="col"><span className="visually-hidden">{t('invoices.actions')}</span></th>
              </tr>
            </thead>
            <tbody>
              {query.data.map((inv) => (
                <tr key={inv._id} data-testid="invoice-row">
                  <td data-label={t('invoices.number')}><Link href={`/invoices?invoice=${inv._id}`}>{inv.number}</Link>
                    {' '}<span className={`badge ${inv.document === 'receipt' ? 'badge--neutral' : 'badge--success'}`}>{t(`invoices.kind.${inv.document}`)}</span></td>
                  <td data-label={t('invoices.date')}>{dateTime(inv.issuedAt, language)}</td>
                  <td data-label={t('invoices.description_col')}>{inv.description}</td>
                  <td data-label={t('invoices.paidWith')}>{t(`method.${inv.provider}`)}</td>
                  <td data-label={t('invoices.amount')} className="pp-right">{formatUsd(inv.amount)}</td>
                  <td className="pp-right">
                    <a className="btn btn--secondary btn--sm" href={invoicePdfUrl(inv._id, language)} download={`${inv.number}.pdf`}
                      aria-label={t('invoices.downloadOne', { number: inv.number })}>PDF</a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
