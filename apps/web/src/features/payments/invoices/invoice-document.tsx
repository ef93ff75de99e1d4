import type { Invoice } from '@cellport/shared/schemas/payments';
import { useT } from '../../../lib/i18n';
import { dateTime } from '../../../lib/dates';
import { formatUsd } from '../../../lib/money';

/** One invoice as a printable document (the page's print CSS prints only this). */
export function InvoiceDocument({ invoice }: { invoice: Invoice }) {
  const { t, language } = useT(['payments', 'common']);
  return (
    <article className="inv-doc card" aria-labelledby="invoice-title" data-testid="invoice-document">
      <header className="inv-doc__head">
        <div>
          <p className="inv-doc__brand">{t('common:appName')}</p>
          <h2 id="invoice-title" className="inv-doc__title">{t('invoices.invoiceTitle', { number: invoice.number })}</h2>
        </div>
        <dl className="inv-doc__meta">
          <div><dt>{t('invoices.issued')}</dt><dd>{dateTime(invoice.issuedAt, language)}</dd></div>
          <div><dt>{t('invoices.paidWith')}</dt><dd>{t(`method.${invoice.provider}`)}</dd></div>
        </dl>
      </header>
      <section className="inv-doc__bill-to" aria-label={t('invoices.billTo')}>
        <h3>{t('invoices.billTo')}</h3>
        <p>{invoice.customer.name}{invoice.customer.company_name ? <><br />{invoice.customer.company_name}</> : null}<br />{invoice.customer.email}</p>
      </section>
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
    </article>
  );
}
