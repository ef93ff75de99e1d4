import { SUPPORT_LIMITS, ticketMessageRequestSchema } from '@cellport/shared/schemas/support';
import { useId, useRef, useState, type ReactNode } from 'react';
import * as z from 'zod/mini';
import { Button } from '../../../components/ui/button';
import { TextAreaField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n';
import type { UploadScope } from '../api/upload-attachment';
import { AttachmentPicker } from './attachment-picker';
import { useAttachments } from './use-attachments';
import '../support.css';

export interface ReplyBoxProps {
  scope: UploadScope;
  busy: boolean;
  /** Said above the box (e.g. that replying reopens a closed request). */
  note?: string | undefined;
  /** Sends; resolves true when it went, so the box empties. */
  onSend: (body: string, attachments: string[]) => Promise<boolean>;
  /** Controls above the message (the console's canned replies), given a way to put text into the message. */
  toolbar?: (insert: (text: string) => void) => ReactNode;
  /** Controls beside the send button (the console's state after sending). */
  extraActions?: ReactNode;
  sendLabel?: string;
}

/** The reply form under a conversation: the message (pasted screenshots are attached), screenshots, send. */
export function ReplyBox({ scope, busy, note, onSend, toolbar, extraActions, sendLabel }: ReplyBoxProps) {
  const { t } = useT('support');
  const id = useId();
  const [body, setBody] = useState('');
  const [touched, setTouched] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const attachments = useAttachments(scope);
  const invalid = touched && !z.safeParse(ticketMessageRequestSchema, { body }).success;
  const insert = (text: string) => {
    setBody((current) => (current.trim() ? `${current.trimEnd()}\n\n${text}` : text));
    textarea.current?.focus();
  };
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!z.safeParse(ticketMessageRequestSchema, { body }).success || attachments.busy) return;
    if (await onSend(body.trim(), attachments.ids)) {
      setBody('');
      setTouched(false);
      attachments.clear();
    }
  };
  return (
    <form className="card sp-reply" onSubmit={(e) => void submit(e)} noValidate onPaste={attachments.onPaste} aria-labelledby={`${id}-label`}>
      <h2 id={`${id}-label`} className="sp-reply__title">{t('reply.title')}</h2>
      {note ? <p className="sp-reply__note">{note}</p> : null}
      {toolbar ? <div className="sp-reply__toolbar">{toolbar(insert)}</div> : null}
      <TextAreaField
        textareaRef={textarea}
        label={t('reply.message')}
        rows={5}
        value={body}
        maxLength={SUPPORT_LIMITS.bodyMax}
        onChange={(e) => setBody(e.target.value)}
        hint={scope === 'customer' ? t('form.messageHint') : t('reply.pasteHint')}
        error={invalid ? t('form.messageError') : undefined}
      />
      <AttachmentPicker state={attachments} disabled={busy} />
      <div className="sp-form__actions">
        {extraActions}
        <Button type="submit" busy={busy} disabled={attachments.busy}>{attachments.busy ? t('form.waitUploads') : (sendLabel ?? t('reply.send'))}</Button>
      </div>
    </form>
  );
}
