import type { Invoice } from '@cellport/shared/schemas/payments';
import { useT } from '../../../lib/i18n';
import { dateTime } from '../../../lib/dates';
import { formatUsd } from '../../../lib/money';

/**
 * One invoice or receipt as a printable document (the page's print CSS prints only this): the seller's legal details,
 * the buyer's, the lines, and what the document is (decision 038).
 */
export function InvoiceDocument({ invoice }: { invoice: Invoice }) {
  const { t, language } = useT(['payments', 'common']);
  const receipt = invoice.document === 'receipt';
  const { seller, customer } = invoice;
  const lines = (values: string[]) => values.filter(Boolean).flatMap((v, i) => (i ? [<br key={i} />, v] : [v]));
  const note = receipt ? t('invoices.receiptNote') : invoice.provider === 'balance' ? t('invoices.balanceNote') : null;
  return (
    <article className="inv-doc card" aria-labelledby="invoice-title" data-testid="invoice-document">
      <header className="inv-doc__head">
        <div>
          <p className="inv-doc__brand">{t('common:appName')}</p>
          <h2 id="invoice-title" className="inv-doc__title">{t(receipt ? 'invoices.receiptTitle' : 'invoices.invoiceTitle', { number: invoice.number })}</h2>
        </div>
        <dl className="inv-doc__meta">
          <div><dt>{t('invoices.issued')}</dt><dd>{dateTime(invoice.issuedAt, language)}</dd></div>
          <div><dt>{t('invoices.paidWith')}</dt><dd>{t(`method.${invoice.provider}`)}</dd></div>
        </dl>
      </header>
      <div className="inv-doc__parties">
        <section className="inv-doc__bill-to" aria-label={t('invoices.seller')}>
          <h3>{t('invoices.seller')}</h3>
          <p>{lines([seller.name, seller.address, seller.taxId ? t('invoices.taxId', { taxId: seller.taxId }) : ''])}</p>
        </section>
        <section className="inv-doc__bill-to" aria-label={t(receipt ? 'invoices.receivedFrom' : 'invoices.billTo')}>
          <h3>{t(receipt ? 'invoices.receivedFrom' : 'invoices.billTo')}</h3>
          <p>{lines([customer.company_name, customer.name, customer.address,
            customer.vat_number ? t('invoices.vatNumber', { vat: customer.vat_number }) : '', customer.email])}</p>
        </section>
      </div>
      <table className="inv-doc__lines">
        <caption className="visually-hidden">{t('invoices.linesCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('invoices.line')}</th>
            <th scope="col" className="pp-right">{t('invoices.quantity')}</th>
            <th scope="col" className="pp-right">{t('invoices.unit')}</th>
            <th scope="col" className="pp-right">{t('invoices.amount')}</th>
          </tr>
        </thead>
        <tbody>
          {invoice.lines.map((line, i) => (
            <tr key={i}>
              <td>{line.description}</td>
              <td className="pp-right">{line.quantity}</td>
              <td className="pp-right">{formatUsd(line.unitAmount)}</td>
              <td className="pp-right">{formatUsd(line.amount)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr><th scope="row" colSpan={3} className="pp-right">{t('invoices.total')}</th><td className="pp-right" data-testid="invoice-total">{formatUsd(invoice.amount)} {invoice.currency}</td></tr>
        </tfoot>
      </table>
      {note && <p className="inv-doc__note">{note}</p>}
    </article>
  );
}
