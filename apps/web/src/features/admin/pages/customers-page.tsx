import { useState } from 'react';
import { Link } from 'wouter';
import { useT } from '../../../lib/i18n';
import { dateTime } from '../../../lib/dates';
import { useCustomers } from '../api/customers';
import { PageTitle } from '../components/page-title';
import { Pagination } from '../components/pagination';
import { EmptyRow, QueryView } from '../components/query-view';
import { SearchBox } from '../components/search-box';
import { StatusBadge } from '../components/status-badge';
import { coinAmount } from '../lib/format';

const PAGE_SIZE = 50;

/** Customers: search by e-mail, name or company; a page of 50 at a time. */
export function CustomersPage() {
  const { t, language } = useT('admin');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const customers = useCustomers(q, page, PAGE_SIZE);
  return (
    <>
      <PageTitle title={t('nav.customers')} description={t('customers.description')} />
      <SearchBox label={t('customers.search')} value={q} onSearch={(next) => { setQ(next); setPage(1); }} />
      <QueryView query={customers}>
        {(data) => (
          <>
            <div className="admin-table-wrap" tabIndex={0}>
              <table className="admin-table">
                <thead>
                  <tr>
                    <th scope="col">{t('fields.email')}</th><th scope="col">{t('fields.personName')}</th><th scope="col">{t('fields.balance')}</th>
                    <th scope="col">{t('fields.ports')}</th><th scope="col">{t('fields.status')}</th><th scope="col">{t('fields.createdAt')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.length === 0 ? <EmptyRow colSpan={6}>{q ? t('customers.noMatch') : t('customers.empty')}</EmptyRow> : null}
                  {data.items.map((c) => (
                    <tr key={c.id}>
                      <td><Link href={`/customers/${c.id}`}>{c.email}</Link>{c.role === 'admin' ? <> <StatusBadge tone="neutral">{t('customers.admin')}</StatusBadge></> : null}</td>
                      <td>{c.name}{c.companyName ? <span className="admin-muted"> · {c.companyName}</span> : null}</td>
                      <td className="num">{coinAmount(c.balances.usdt, 'usdt')}</td>
                      <td className="num">{c.portsCount}</td>
                      <td><CustomerStatus active={c.isActive} verified={c.isVerified} /></td>
                      <td>{dateTime(c.createdAt, language)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pagination list={data} onPage={setPage} />
          </>
        )}
      </QueryView>
    </>
  );
}

export function CustomerStatus({ active, verified }: { active: boolean; verified: boolean }) {
  const { t } = useT('admin');
  if (!active) return <StatusBadge tone="bad">{t('customers.deactivated')}</StatusBadge>;
  if (!verified) return <StatusBadge tone="warn">{t('customers.unverified')}</StatusBadge>;
  return <StatusBadge tone="ok">{t('customers.active')}</StatusBadge>;
}
