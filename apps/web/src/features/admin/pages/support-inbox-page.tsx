import { TICKET_STATES, type TicketState } from '@cellport/shared/schemas/support';
import { useState } from 'react';
import { Link } from 'wouter';
import { dateTime, relativeTime } from '../../../lib/dates';
import { useT } from '../../../lib/i18n';
import { useSupportSummary, useSupportTickets, type AssigneeFilter } from '../api/support';
import { PageTitle } from '../components/page-title';
import { Pagination } from '../components/pagination';
import { EmptyRow, QueryView } from '../components/query-view';
import { SearchBox } from '../components/search-box';
import { SelectField } from '../components/select-field';
import { StatusBadge } from '../components/status-badge';
import { Tabs } from '../components/tabs';
import { count } from '../lib/format';

const PAGE_SIZE = 25;
const ASSIGNEES: readonly AssigneeFilter[] = ['all', 'me', 'none'];

/** The support inbox: tickets by state (with counts), whose they are, a search, 25 a page; polled for new ones. */
export function SupportInboxPage() {
  const { t, language } = useT(['admin', 'support']);
  const [state, setState] = useState<TicketState>('open');
  const [assignee, setAssignee] = useState<AssigneeFilter>('all');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const summary = useSupportSummary();
  const tickets = useSupportTickets({ state, assignee, q, page }, PAGE_SIZE);
  const tabCount = (key: TicketState) => (key === 'closed' || !summary.data ? '' : ` (${count(summary.data[key], language)})`);
  return (
    <>
      <PageTitle
        title={t('nav.support')}
        description={t('support.description')}
        actions={<Link href="/support/canned" className="btn btn--secondary">{t('support.canned.title')}</Link>}
      />
      <Tabs
        label={t('support.states')}
        tabs={TICKET_STATES.map((key) => ({ key, label: `${t(`support:state.operator.${key}`)}${tabCount(key)}` }))}
        selected={state}
        onSelect={(key) => { setState(key as TicketState); setPage(1); }}
      >
        <div className="admin-toolbar">
          <SelectField
            label={t('support.assignee')}
            value={assignee}
            options={ASSIGNEES.map((value) => ({ value, label: t(`support.assigneeFilter.${value}`) }))}
            onChange={(value) => { setAssignee(value as AssigneeFilter); setPage(1); }}
          />
          <SearchBox label={t('support.search')} value={q} onSearch={(next) => { setQ(next); setPage(1); }} />
        </div>
        <QueryView query={tickets}>
          {(data) => (
            <>
              <div className="admin-table-wrap" tabIndex={0} role="region" aria-label={t('support.tableLabel')}>
                <table className="admin-table" data-testid="support-inbox">
                  <thead>
                    <tr>
                      <th scope="col">{t('support.ticket')}</th><th scope="col">{t('fields.customer')}</th>
                      <th scope="col">{t('support.port')}</th><th scope="col">{t('support.assignee')}</th>
                      <th scope="col">{t('support.lastMessage')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.length === 0 ? <EmptyRow colSpan={5}>{q ? t('support.noMatch') : t('support.empty')}</EmptyRow> : null}
                    {data.items.map((ticket) => (
                      <tr key={ticket._id} className={ticket.unread ? 'admin-support__unread' : undefined}>
                        <td>
                          <Link href={`/support/${ticket._id}`}><span className="admin-muted">#{ticket.number}</span> {ticket.subject}</Link>
                          {ticket.unread ? <> <StatusBadge tone="warn">{t('support.unread')}</StatusBadge></> : null}
                        </td>
                        <td><Link href={`/customers/${ticket.customer._id}`}>{ticket.customer.email}</Link></td>
                        <td>{ticket.port?.name ?? '—'}</td>
                        <td>{ticket.assignee?.name ?? <span className="admin-muted">{t('support.unassigned')}</span>}</td>
                        <td><time dateTime={ticket.lastMessageAt} title={dateTime(ticket.lastMessageAt, language)}>{relativeTime(ticket.lastMessageAt, language)}</time></td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pagination list={data} onPage={setPage} />
            </>
          )}
        </QueryView>
      </Tabs>
    </>
  );
}
