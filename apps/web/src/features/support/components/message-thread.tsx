import type { SupportAttachment, SupportMessage } from '@cellport/shared/schemas/support';
import { useState } from 'react';
import { Dialog } from '../../../components/ui/dialog';
import { dateTime, relativeTime } from '../../../lib/dates';
import { useT } from '../../../lib/i18n';
import { attachmentUrl } from '../api/upload-attachment';
import '../support.css';

/** Whose page this is: the customer's ("You" wrote the customer's messages) or an operator's. */
export type ThreadViewer = 'customer' | 'operator';

/**
 * The messages of a ticket, oldest first. Screenshots show as thumbnails; each opens full size in a dialog (with a
 * link to the original). `customerName` names the customer's messages on the console.
 */
export function MessageThread({ messages, viewer, customerName }: { messages: readonly SupportMessage[]; viewer: ThreadViewer; customerName?: string }) {
  const { t, language } = useT('support');
  const [shown, setShown] = useState<SupportAttachment | null>(null);
  const author = (message: SupportMessage) => {
    if (message.author === 'customer') return viewer === 'customer' ? t('thread.you') : (customerName ?? message.authorName ?? t('thread.customer'));
    return message.authorName ? t('thread.operatorNamed', { name: message.authorName }) : t('thread.operator');
  };
  return (
    <>
      <ol className="sp-thread" aria-label={t('thread.label')} data-testid="support-thread">
        {messages.map((message) => {
          const own = (message.author === 'customer') === (viewer === 'customer');
          return (
            <li key={message._id} className={`sp-message sp-message--${message.author}${own ? ' sp-message--own' : ''}`} data-testid="support-message">
              <div className="sp-message__head">
                <strong className="sp-message__author">{author(message)}</strong>
                <time dateTime={message.createdAt} title={dateTime(message.createdAt, language)}>{relativeTime(message.createdAt, language)}</time>
              </div>
              <p className="sp-message__body">{message.body}</p>
              {message.attachments.length ? (
                <ul className="sp-message__attachments" aria-label={t('thread.attachments')}>
                  {message.attachments.map((attachment) => (
                    <li key={attachment._id}>
                      <button type="button" className="sp-message__thumb" onClick={() => setShown(attachment)} aria-label={t('thread.openImage', { name: attachment.name })}>
                        <img src={attachmentUrl(attachment._id)} alt="" loading="lazy" />
                      </button>
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          );
        })}
      </ol>
      <Dialog open={shown !== null} onClose={() => setShown(null)} title={shown?.name ?? ''} size="lg">
        {shown ? (
          <div className="sp-lightbox">
            <img src={attachmentUrl(shown._id)} alt={shown.name} />
            <a href={attachmentUrl(shown._id)} target="_blank" rel="noopener noreferrer">{t('thread.openOriginal')}</a>
          </div>
        ) : null}
      </Dialog>
    </>
  );
}

/** The state of a ticket in words, as a coloured badge (the colour repeats the text). */
export function TicketStateBadge({ state, viewer }: { state: 'open' | 'waiting' | 'closed'; viewer: ThreadViewer }) {
  const { t } = useT('support');
  return <span className={`sp-state sp-state--${state}`} data-testid="ticket-state">{t(`state.${viewer}.${state}`)}</span>;
}
