import type { OutboxMessage } from '@cellport/shared/schemas/dev';
import { useState } from 'react';
import { useT } from '../../lib/i18n';

// Links inside the message open in the top window (a confirmation link then simply navigates). The HTML runs in a
// sandbox without scripts or same-origin rights; only user-activated top navigation and pop-ups are allowed.
const BASE = '<base target="_top">';
const withBase = (html: string) => (/<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (m) => `${m}${BASE}`) : `${BASE}${html}`);

const URL_PATTERN = /(https?:\/\/[^\s<>"')]+)/g;

/** Plain text with its URLs as links. */
function LinkedText({ text }: { text: string }) {
  return <>{text.split(URL_PATTERN).map((part, i) => (i % 2 === 1 ? <a key={i} href={part}>{part}</a> : part))}</>;
}

/** One outbox message: subject, addressee and date, then the HTML version (sandboxed) or the text version. */
export function MessageView({ message, date }: { message: OutboxMessage; date: string }) {
  const { t } = useT('pages');
  const [view, setView] = useState<'html' | 'text'>(message.html ? 'html' : 'text');
  return (
    <article className="mailbox__message card" aria-labelledby="mailbox-subject">
      <header className="mailbox__message-header">
        <h2 id="mailbox-subject">{message.subject}</h2>
        <p>{t('mailbox.to', { email: message.to })} · <time dateTime={message.createdAt}>{date}</time></p>
        <div className="mailbox__tabs" role="group" aria-label={t('mailbox.format')}>
          <button type="button" aria-pressed={view === 'html'} disabled={!message.html} onClick={() => setView('html')}>HTML</button>
          <button type="button" aria-pressed={view === 'text'} onClick={() => setView('text')}>{t('mailbox.text')}</button>
        </div>
      </header>
      {view === 'html' ? (
        <iframe
          className="mailbox__frame"
          title={t('mailbox.htmlTitle', { subject: message.subject })}
          sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation"
          srcDoc={withBase(message.html)}
        />
      ) : (
        <pre className="mailbox__text"><LinkedText text={message.text} /></pre>
      )}
    </article>
  );
}
