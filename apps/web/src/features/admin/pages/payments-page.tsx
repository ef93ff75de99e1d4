import { PAYMENT_KINDS, PAYMENT_PROVIDERS, PAYMENT_STATUSES } from '@cellport/shared/schemas/payments';
import type { AdminPaymentsQuery } from '@cellport/shared/schemas/admin/payments';
import { useState } from 'react';
import { Link } from 'wouter';
import { dateTime } from '../../../lib/dates';
import { useT } from '../../../lib/i18n';
import { usePayments } from '../api/payments';
import { PageTitle } from '../components/page-title';
import { Pagination } from '../components/pagination';
import { EmptyRow, QueryView } from '../components/query-view';
import { SearchBox } from '../components/search-box';
import { SelectField } from '../components/select-field';
import { PaymentStatusBadge } from '../components/payment-status-badge';
import { usd } from '../lib/format';

/** Payments across all providers, filtered by provider, status and kind, searchable; each opens its details. */
export function PaymentsPage() {
  const { t, language } = useT('admin');
  const [query, setQuery] = useState<AdminPaymentsQuery>({ page: 1, pageSize: 50 });
  const payments = usePayments(query);
  const filter = (patch: Partial<AdminPaymentsQuery>) => setQuery((q) => ({ ...q, ...patch, page: 1 }));
  return (
    <>
      <PageTitle title={t('nav.payments')} description={t('payments.description')} />
      <div className="admin-toolbar">
        <SearchBox label={t('payments.search')} value={query.q ?? ''} onSearch={(q) => filter({ q: q || undefined })} />
        <SelectField label={t('fields.provider')} value={query.provider ?? ''} placeholder={t('all')} onChange={(v) => filter({ provider: v || undefined })}
          options={PAYMENT_PROVIDERS.map((p) => ({ value: p, label: t(`providers.${p}`) }))} />
        <SelectField label={t('fields.status')} value={query.status ?? ''} placeholder={t('all')} onChange={(v) => filter({ status: v || undefined })}
          options={PAYMENT_STATUSES.map((s) => ({ value: s, label: t(`paymentStatus.${s}`) }))} />
        <SelectField label={t('fields.kind')} value={query.kind ?? ''} placeholder={t('all')} onChange={(v) => filter({ kind: v || undefined })}
          options={PAYMENT_KINDS.map((k) => ({ value: k, label: t(`paymentKinds.${k}`) }))} />
      </div>
      <QueryView query={payments}>
        {(data) => (
          <>
            <div className="admin-table-wrap" tabIndex={0}>
              <table className="admin-table">
                <thead>
                  <tr>
                    <th scope="col">{t('fields.date')}</th><th scope="col">{t('fields.customer')}</th><th scope="col">{t('fields.provider')}</th>
                    <th scope="col">{t('fields.kind')}</th><th scope="col">{t('fields.amount')}</th><th scope="col">{t('fields.status')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.length === 0 ? <EmptyRow colSpan={6}>{t('payments.empty')}</EmptyRow> : null}
                  {data.items.map((p) => (
                    <tr key={p.id}>
                      <td><Link href={`/payments/${p.id}`} aria-label={t('payments.openNamed', { email: p.email, date: dateTime(p.createdAt, language) })}>{dateTime(p.createdAt, language)}</Link></td>
                      <td>{p.email}</td>
                      <td>{t(`providers.${p.provider}`, { defaultValue: p.provider })}</td>
                      <td>{t(`paymentKinds.${p.kind}`, { defaultValue: p.kind })}{p.coupon ? <span className="admin-muted"> · {p.coupon}</span> : null}</td>
                      <td className="num">{usd(p.amount)}{p.refunded !== '0' ? <span className="admin-muted"> ({t('payments.refundedAmount', { amount: usd(p.refunded) })})</span> : null}</td>
                      <td><PaymentStatusBadge status={p.status} /></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pagination list={data} onPage={(page) => setQuery((q) => ({ ...q, page }))} />
          </>
        )}
      </QueryView>
    </>
  );
}
