import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { icons } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { dateTime, relativeTime } from '../../../lib/dates';
import { useT } from '../../../lib/i18n';
import { errorText } from '../../../lib/translate-api-error';
import { ticketsQuery } from '../api/tickets';
import { TicketStateBadge } from '../components/message-thread';

// The new-request form loads when the customer starts one: its check (the shared schema and zod) stays out of the
// page's first download (issue 31, item 4; bench/page-bundles.mjs).
const NewTicketForm = lazy(() => import('../components/new-ticket-form').then((m) => ({ default: m.NewTicketForm })));

/** Support: the customer's requests, newest activity first, and "New request" (?port=<id> opens it about that port). */
export default function SupportPage() {
  const { t, language } = useT(['support', 'errors']);
  const search = useSearch();
  const [, navigate] = useLocation();
  const portParam = useMemo(() => new URLSearchParams(search).get('port'), [search]);
  const [composing, setComposing] = useState(portParam !== null);
  const tickets = useQuery(ticketsQuery);

  const newButton = composing ? undefined : <Button onClick={() => setComposing(true)} icon={icons.plus}>{t('newRequest')}</Button>;
  let body;
  if (tickets.isPending) {
    body = <div className="sp-loading"><Spinner size={24} label={t('loading')} /></div>;
  } else if (tickets.isError) {
    body = (
      <div className="card sp-error" role="alert">
        <p>{errorText(t, tickets.error)}</p>
        <Button variant="secondary" onClick={() => void tickets.refetch()}>{t('retry')}</Button>
      </div>
    );
  } else if (!tickets.data.length) {
    body = composing ? null : (
      <EmptyState icon={icons.inbox} title={t('empty.title')} action={newButton}><p>{t('empty.text')}</p></EmptyState>
    );
  } else {
    body = (
      <section aria-labelledby="sp-list-title">
        <h2 id="sp-list-title" className="sp-list__title">{t('list.title')}</h2>
        <ul className="sp-list" data-testid="support-tickets">
          {tickets.data.map((ticket) => (
            <li key={ticket._id} className={`card sp-row${ticket.unread ? ' sp-row--unread' : ''}`} data-testid="support-ticket-row">
              <div className="sp-row__main">
                <Link href={`/support/${ticket._id}`} className="sp-row__subject">
                  <span className="sp-row__number">#{ticket.number}</span> {ticket.subject}
                </Link>
                <p className="sp-row__meta">
                  {ticket.port ? <span>{t('list.port', { name: ticket.port.name })} · </span> : null}
                  <span>{t('list.lastActivity')} <time dateTime={ticket.lastMessageAt} title={dateTime(ticket.lastMessageAt, language)}>{relativeTime(ticket.lastMessageAt, language)}</time></span>
                </p>
              </div>
              <div className="sp-row__badges">
                {ticket.unread ? <span className="sp-unread" data-testid="ticket-unread">{t('list.newReply')}</span> : null}
                <TicketStateBadge state={ticket.state} viewer="customer" />
              </div>
            </li>
          ))}
        </ul>
      </section>
    );
  }

  return (
    <section className="sp-page">
      <PageHeader title={t('title')} description={t('description')} actions={tickets.data?.length ? newButton : undefined} />
      {composing ? (
        <Suspense fallback={<div className="sp-loading"><Spinner size={24} label={t('loading')} /></div>}>
          <NewTicketForm
            initialPortId={portParam}
            onCreated={(ticket) => navigate(`/support/${ticket._id}`)}
            onCancel={() => { setComposing(false); if (portParam) navigate('/support', { replace: true }); }}
          />
        </Suspense>
      ) : null}
      {body}
    </section>
  );
}
