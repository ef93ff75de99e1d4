import { createTicketRequestSchema, SUPPORT_LIMITS, type TicketDetail } from '@cellport/shared/schemas/support';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import * as z from 'zod/mini';
import { Button } from '../../../components/ui/button';
import { TextAreaField, TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { errorText } from '../../../lib/translate-api-error';
import { localizedModemsQuery } from '../../../store/catalog-queries';
import { SUPPORT_KEYS } from '../../../store/support-tickets';
import { createTicket } from '../api/tickets';
import { AttachmentPicker } from './attachment-picker';
import { useAttachments } from './use-attachments';
import '../support.css';

type Field = 'subject' | 'body';

/** The fields the shared schema refuses (an empty subject or message), for the messages beside them. */
function invalidFields(values: unknown): Set<Field> {
  const result = z.safeParse(createTicketRequestSchema, values);
  return new Set(result.success ? [] : result.error.issues.map((issue) => issue.path[0]).filter((f): f is Field => f === 'subject' || f === 'body'));
}

/** "New request": subject, message, optionally one of the customer's ports, and screenshots. */
export function NewTicketForm({ initialPortId, onCreated, onCancel }: {
  initialPortId: string | null; onCreated: (ticket: TicketDetail) => void; onCancel: () => void;
}) {
  const { t, language } = useT(['support', 'errors']);
  const id = useId();
  const client = useQueryClient();
  const ports = useQuery(localizedModemsQuery(language));
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [portId, setPortId] = useState(initialPortId ?? '');
  const [touched, setTouched] = useState(false);
  const attachments = useAttachments('customer');
  const create = useMutation({
    mutationFn: createTicket,
    onSuccess: async (ticket) => {
      client.setQueryData(SUPPORT_KEYS.ticket(ticket._id), ticket);
      await client.invalidateQueries({ queryKey: SUPPORT_KEYS.list });
      toast.success(t('form.sent', { number: ticket.number }));
      onCreated(ticket);
    },
    onError: (error) => toast.error(errorText(t, error)),
  });
  const values = { subject, body, portId: portId || null, attachments: attachments.ids };
  const invalid = touched ? invalidFields(values) : new Set<Field>();
  const knownPort = (ports.data ?? []).some((p) => p._id === portId);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (invalidFields(values).size || attachments.busy) return;
    create.mutate({ ...values, portId: knownPort ? portId : null });
  };

  return (
    <form className="card sp-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`} onPaste={attachments.onPaste}>
      <h2 id={`${id}-title`} className="sp-form__title">{t('form.title')}</h2>
      <TextField
        label={t('form.subject')}
        value={subject}
        maxLength={SUPPORT_LIMITS.subjectMax}
        onChange={(e) => setSubject(e.target.value)}
        error={invalid.has('subject') ? t('form.subjectError') : undefined}
        autoComplete="off"
      />
      <div className="field">
        <label htmlFor={`${id}-port`}>{t('form.port')}</label>
        <select id={`${id}-port`} value={knownPort ? portId : ''} onChange={(e) => setPortId(e.target.value)} disabled={ports.isPending}>
          <option value="">{ports.isPending ? t('form.portsLoading') : t('form.noPort')}</option>
          {(ports.data ?? []).map((port) => (
            <option key={port._id} value={port._id}>{port.modem_name} · {port.host}:{port.http_port}</option>
          ))}
        </select>
      </div>
      <TextAreaField
        label={t('form.message')}
        rows={6}
        value={body}
        maxLength={SUPPORT_LIMITS.bodyMax}
        onChange={(e) => setBody(e.target.value)}
        hint={t('form.messageHint')}
        error={invalid.has('body') ? t('form.messageError') : undefined}
      />
      <AttachmentPicker state={attachments} disabled={create.isPending} />
      <div className="sp-form__actions">
        <Button variant="secondary" onClick={onCancel}>{t('form.cancel')}</Button>
        <Button type="submit" busy={create.isPending} disabled={attachments.busy}>{attachments.busy ? t('form.waitUploads') : t('form.send')}</Button>
      </div>
    </form>
  );
}
