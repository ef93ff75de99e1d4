import { TICKET_STATES, type AdminTicketDetail, type CannedReply, type TicketState } from '@cellport/shared/schemas/support';
import { useEffect, useId, useState } from 'react';
import { Link } from 'wouter';
import { Button } from '../../../components/ui/button';
import { dateTime } from '../../../lib/dates';
import { useT } from '../../../lib/i18n';
import { MessageThread, ReplyBox, TicketStateBadge } from '../../support';
import { replyAsOperator, updateTicket, useCannedReplies, useSupportOperators, useSupportTicket } from '../api/support';
import { useAdminMe } from '../api/get-me';
import { useAdminMutation } from '../api/use-admin-mutation';
import { PageTitle } from '../components/page-title';
import { QueryView } from '../components/query-view';
import { SelectField } from '../components/select-field';

/** One ticket on the console: the conversation (polled, so customers' replies appear), the reply, state and assignee. */
export function SupportTicketPage({ id }: { id: string }) {
  const { t } = useT(['admin', 'support']);
  const ticket = useSupportTicket(id);
  return (
    <>
      <p className="admin-back"><Link href="/support">← {t('support.back')}</Link></p>
      <QueryView query={ticket}>{(data) => <TicketView ticket={data} />}</QueryView>
    </>
  );
}

function TicketView({ ticket }: { ticket: AdminTicketDetail }) {
  const { t, language } = useT(['admin', 'support']);
  const id = useId();
  const me = useAdminMe().data;
  const operators = useSupportOperators();
  const canned = useCannedReplies();
  const [nextState, setNextState] = useState<TicketState>('waiting');
  // State and assignee are chosen, then saved: a <select> changes on each arrow key, which must not write each time.
  const [draftState, setDraftState] = useState<TicketState>(ticket.state);
  const [draftAssignee, setDraftAssignee] = useState(ticket.assignee?._id ?? '');
  // What the ticket holds now (a save, another operator, a reply) becomes the choice again.
  useEffect(() => { setDraftState(ticket.state); }, [ticket.state]);
  useEffect(() => { setDraftAssignee(ticket.assignee?._id ?? ''); }, [ticket.assignee?._id]);
  const changed = draftState !== ticket.state || draftAssignee !== (ticket.assignee?._id ?? '');
  const update = useAdminMutation(updateTicket, { successKey: 'support.saved' });
  const reply = useAdminMutation(replyAsOperator, { successKey: 'support.replySent' });
  const operatorOptions = [
    { value: '', label: t('support.unassigned') },
    ...(operators.data ?? []).map((o) => ({ value: o._id, label: o._id === me?.id ? t('support.meNamed', { name: o.name }) : o.name })),
  ];
  // The assignee may be an operator no longer active: still shown as the current choice.
  if (ticket.assignee && !operatorOptions.some((o) => o.value === ticket.assignee!._id)) operatorOptions.push({ value: ticket.assignee._id, label: ticket.assignee.name });
  const mine = Boolean(me && ticket.assignee?._id === me.id);

  return (
    <>
      <PageTitle
        title={<><span className="admin-muted">#{ticket.number}</span> {ticket.subject}</>}
        description={<>{t('fields.customer')}: <Link href={`/customers/${ticket.customer._id}`}>{ticket.customer.email}</Link></>}
        actions={<TicketStateBadge state={ticket.state} viewer="operator" />}
      />
      <div className="admin-support">
        <div className="admin-support__conversation">
          <MessageThread messages={ticket.messages} viewer="operator" customerName={ticket.customer.email} />
          <ReplyBox
            scope="admin"
            busy={reply.isPending}
            note={ticket.state === 'closed' ? t('support.closedNote') : undefined}
            sendLabel={t('support.send')}
            onSend={(body, attachments) => reply.mutateAsync({ id: ticket._id, body, attachments, state: nextState }).then(() => true, () => false)}
            toolbar={(insert) => <CannedPicker replies={canned.data} insert={insert} />}
            extraActions={(
              <SelectField
                className="admin-support__next"
                label={t('support.thenState')}
                value={nextState}
                options={TICKET_STATES.map((value) => ({ value, label: t(`support:state.operator.${value}`) }))}
                onChange={(value) => setNextState(value as TicketState)}
              />
            )}
          />
        </div>
        <aside className="card admin-section admin-support__side" aria-labelledby={`${id}-details`}>
          <h2 id={`${id}-details`}>{t('support.details')}</h2>
          <form
            className="admin-support__controls"
            onSubmit={(event) => {
              event.preventDefault();
              const change = {
                ...(draftState !== ticket.state ? { state: draftState } : {}),
                ...(draftAssignee !== (ticket.assignee?._id ?? '') ? { assigneeId: draftAssignee || null } : {}),
              };
              if (Object.keys(change).length) update.mutate({ id: ticket._id, ...change });
            }}
          >
            <SelectField
              label={t('support.state')}
              value={draftState}
              options={TICKET_STATES.map((value) => ({ value, label: t(`support:state.operator.${value}`) }))}
              onChange={(value) => setDraftState(value as TicketState)}
            />
            <SelectField label={t('support.assignee')} value={draftAssignee} options={operatorOptions} onChange={setDraftAssignee} />
            <Button type="submit" size="sm" busy={update.isPending} disabled={!changed}>{t('actions.save')}</Button>
          </form>
          {me && !mine ? (
            <Button variant="secondary" size="sm" busy={update.isPending} onClick={() => update.mutate({ id: ticket._id, assigneeId: me.id })}>
              {t('support.assignToMe')}
            </Button>
          ) : null}
          <dl className="admin-dl admin-support__facts">
            <dt>{t('fields.customer')}</dt><dd><Link href={`/customers/${ticket.customer._id}`}>{ticket.customer.email}</Link></dd>
            <dt>{t('support.port')}</dt>
            <dd>{ticket.port ? <Link href={`/customers/${ticket.customer._id}`}>{ticket.port.name}</Link> : '—'}</dd>
            <dt>{t('fields.createdAt')}</dt><dd>{dateTime(ticket.createdAt, language)}</dd>
          </dl>
        </aside>
      </div>
    </>
  );
}

/** Canned replies: choose one, then insert it into the message (a <select> alone would insert on each arrow key). */
function CannedPicker({ replies, insert }: { replies: CannedReply[] | undefined; insert: (text: string) => void }) {
  const { t } = useT('admin');
  const id = useId();
  const [chosen, setChosen] = useState('');
  const reply = replies?.find((c) => c._id === chosen);
  return (
    <>
      <div className="field">
        <label htmlFor={id}>{t('support.canned.insert')}</label>
        <select id={id} value={chosen} disabled={!replies?.length} onChange={(e) => setChosen(e.target.value)}>
          <option value="">{replies?.length ? t('support.canned.choose') : t('support.canned.none')}</option>
          {(replies ?? []).map((c) => <option key={c._id} value={c._id}>{c.title}</option>)}
        </select>
      </div>
      <Button variant="secondary" disabled={!reply} onClick={() => { if (reply) { insert(reply.body); setChosen(''); } }}>
        {t('support.canned.insertButton')}
      </Button>
    </>
  );
}
