import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'wouter';
import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { errorText } from '../../../lib/translate-api-error';
import { SUPPORT_KEYS } from '../../../store/support-tickets';
import { closeTicket, replyToTicket, ticketQuery } from '../api/tickets';
import { MessageThread, TicketStateBadge } from '../components/message-thread';
import { ReplyBox } from '../components/reply-box';


/** /support/:id, one request; a new id is a new page (nothing typed for one request stays for the next). */
export default function TicketPage() {
  const { id = '' } = useParams<{ id: string }>();
  return <Ticket key={id} id={id} />;
}

/** One request: the conversation (live: the 'support_ticket' event), the reply box, and closing it. */
function Ticket({ id }: { id: string }) {
  const { t } = useT(['support', 'errors']);
  const client = useQueryClient();
  const ticket = useQuery(ticketQuery(id));
  const settle = async (next: Awaited<ReturnType<typeof closeTicket>>) => {
    client.setQueryData(SUPPORT_KEYS.ticket(id), next);
    await client.invalidateQueries({ queryKey: SUPPORT_KEYS.list });
  };
  const close = useMutation({
    mutationFn: () => closeTicket(id),
    onSuccess: async (next) => { await settle(next); toast.success(t('ticket.closed')); },
    onError: (error) => toast.error(errorText(t, error)),
  });
  const reply = useMutation({
    mutationFn: replyToTicket,
    onSuccess: settle,
    onError: (error) => toast.error(errorText(t, error)),
  });
  const back = <Link href="/support" className="sp-back">{t('ticket.back')}</Link>;

  if (ticket.isPending) return <section className="sp-page">{back}<div className="sp-loading"><Spinner size={24} label={t('loading')} /></div></section>;
  if (ticket.isError) {
    const missing = ticket.error instanceof ApiError && ticket.error.status === 404;
    return (
      <section className="sp-page">
        {back}
        <div className="card sp-error" role="alert">
          <p>{missing ? t('ticket.notFound') : errorText(t, ticket.error)}</p>
          {missing ? null : <Button variant="secondary" onClick={() => void ticket.refetch()}>{t('retry')}</Button>}
        </div>
      </section>
    );
  }
  const data = ticket.data;
  return (
    <section className="sp-page">
      {back}
      <PageHeader
        title={<><span className="sp-row__number">#{data.number}</span> {data.subject}</>}
        description={data.port ? <>{t('list.port', { name: data.port.name })} · <Link href="/proxies">{t('ticket.toProxies')}</Link></> : undefined}
        actions={
          <>
            <TicketStateBadge state={data.state} viewer="customer" />
            {data.state !== 'closed' ? <Button variant="secondary" busy={close.isPending} onClick={() => close.mutate()}>{t('ticket.close')}</Button> : null}
          </>
        }
      />
      <MessageThread messages={data.messages} viewer="customer" />
      <ReplyBox
        scope="customer"
        busy={reply.isPending}
        note={data.state === 'closed' ? t('ticket.closedNote') : undefined}
        onSend={(body, attachments) => reply.mutateAsync({ id, body, attachments }).then(() => true, () => false)}
      />
    </section>
  );
}
