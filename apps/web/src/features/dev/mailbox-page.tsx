import type { OutboxMessage } from '@cellport/shared/schemas/dev';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useSearch } from 'wouter';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { icons } from '../../components/ui/icons';
import { ApiError, apiGet } from '../../lib/api';
import { htmlLang, useT } from '../../lib/i18n';
import { MessageView } from './message-view';
import { SandboxBot } from './sandbox-bot';
import './mailbox.css';

type State =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'loaded'; to: string; messages: OutboxMessage[] }
  | { kind: 'error'; message: string };

/**
 * The development mailbox (/dev/mailbox): the e-mails the server wrote to its outbox for one address, newest first
 * (GET /api/v1/dev/outbox?to=), so a new account can be confirmed with no mail server. Outside production only.
 */
export default function MailboxPage() {
  const { t, language } = useT(['pages', 'common', 'errors']);
  const search = useSearch();
  const initial = new URLSearchParams(search).get('to') ?? '';
  const [email, setEmail] = useState(initial);
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [open, setOpen] = useState<number | null>(null);
  const inputId = useId();
  const dates = new Intl.DateTimeFormat(htmlLang(language), { dateStyle: 'medium', timeStyle: 'medium' });

  async function load(address: string) {
    const to = address.trim();
    if (!to) return;
    setState({ kind: 'loading' });
    setOpen(null);
    history.replaceState(null, '', `${location.pathname}?to=${encodeURIComponent(to)}`);
    try {
      const messages = await apiGet<OutboxMessage[]>(`/dev/outbox?to=${encodeURIComponent(to)}`);
      setState({ kind: 'loaded', to, messages });
      if (messages.length) setOpen(0);
    } catch (error) {
      const message = error instanceof ApiError && error.status === 404
        ? t('mailbox.unavailable')
        : t(`errors:${error instanceof ApiError ? error.code : 'INTERNAL'}`, { defaultValue: (error as Error).message });
      setState({ kind: 'error', message });
    }
  }

  useEffect(() => {
    document.title = `${t('mailbox.title')} · ${t('common:appName')}`;
    if (initial) void load(initial);
    // Load once for an address given in the URL.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function submit(event: FormEvent) {
    event.preventDefault();
    void load(email);
  }

  const messages = state.kind === 'loaded' ? state.messages : [];
  const selected = open === null ? null : messages[open] ?? null;
  return (
    <main className="mailbox">
      <header className="mailbox__header">
        <span className="mailbox__badge">{t('mailbox.devOnly')}</span>
        <h1>{t('mailbox.title')}</h1>
        <p>{t('mailbox.description')}</p>
      </header>

      <form className="mailbox__form card" onSubmit={submit}>
        <label htmlFor={inputId}>{t('mailbox.emailLabel')}</label>
        <div className="mailbox__form-row">
          <input id={inputId} type="email" name="to" autoComplete="email" required value={email}
            onChange={(e) => setEmail(e.target.value)} placeholder="name@example.com" />
          <Button type="submit" busy={state.kind === 'loading'}>{t('mailbox.show')}</Button>
          {state.kind === 'loaded' ? (
            <Button variant="secondary" onClick={() => void load(state.to)}>{t('mailbox.refresh')}</Button>
          ) : null}
        </div>
      </form>

      {state.kind === 'error' ? <p className="mailbox__error card" role="alert">{state.message}</p> : null}

      {state.kind === 'loaded' && messages.length === 0 ? (
        <div className="card">
          <EmptyState icon={icons.inbox} title={t('mailbox.emptyTitle')}>
            <p>{t('mailbox.emptyText', { email: state.to })}</p>
          </EmptyState>
        </div>
      ) : null}

      {messages.length ? (
        <div className="mailbox__layout">
          <nav className="mailbox__list card" aria-label={t('mailbox.listLabel', { n: messages.length })}>
            <ul>
              {messages.map((m, i) => (
                <li key={`${m.createdAt}-${i}`}>
                  <button type="button" className="mailbox__item" aria-current={open === i ? 'true' : undefined} onClick={() => setOpen(i)}>
                    <span className="mailbox__item-subject">{m.subject}</span>
                    <time className="mailbox__item-date" dateTime={m.createdAt}>{dates.format(new Date(m.createdAt))}</time>
                  </button>
                </li>
              ))}
            </ul>
          </nav>
          {selected ? <MessageView message={selected} date={dates.format(new Date(selected.createdAt))} /> : null}
        </div>
      ) : null}

      <SandboxBot />
    </main>
  );
}
