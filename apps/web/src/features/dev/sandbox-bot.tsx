import type { DevTelegramStartResponse } from '@cellport/shared/schemas/dev';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { ApiError, apiPost } from '../../lib/api';
import { useT } from '../../lib/i18n';

type State = { kind: 'idle' } | { kind: 'sending' } | { kind: 'answered'; reply: string } | { kind: 'error'; message: string };

/**
 * "Simulate the bot" (issue 27, item 12): without a bot token nothing reaches Telegram, so the person plays Telegram's
 * part here, as "Simulate payment" plays the wallet's: paste the link Account → Telegram shows, and the sandbox bot
 * receives "/start <token>" as if Start had been pressed; its answer is shown, and the account shows the chat linked.
 */
export function SandboxBot() {
  const { t } = useT(['pages', 'errors']);
  const [link, setLink] = useState('');
  const [chatName, setChatName] = useState('');
  const [state, setState] = useState<State>({ kind: 'idle' });
  const linkId = useId();
  const nameId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!link.trim()) return;
    setState({ kind: 'sending' });
    try {
      const { reply } = await apiPost<DevTelegramStartResponse>('/dev/telegram/start', { link: link.trim(), ...(chatName.trim() ? { chatName: chatName.trim() } : {}) });
      setState({ kind: 'answered', reply });
    } catch (error) {
      const message = error instanceof ApiError && error.status === 404 ? t('mailbox.bot.unavailable')
        : error instanceof ApiError && error.status === 400 ? t('mailbox.bot.badLink')
          : t(`errors:${error instanceof ApiError ? error.code : 'INTERNAL'}`, { defaultValue: (error as Error).message });
      setState({ kind: 'error', message });
    }
  }

  return (
    <section className="mailbox__form card" aria-labelledby={`${linkId}-title`} data-testid="sandbox-bot">
      <h2 id={`${linkId}-title`} className="mailbox__section-title">{t('mailbox.bot.title')}</h2>
      <p className="mailbox__hint">{t('mailbox.bot.description')}</p>
      <form onSubmit={(e) => void submit(e)}>
        <label htmlFor={linkId}>{t('mailbox.bot.linkLabel')}</label>
        <div className="mailbox__form-row">
          <input id={linkId} type="text" name="link" required value={link} onChange={(e) => setLink(e.target.value)}
            placeholder="https://t.me/cellport_sandbox_bot?start=…" autoComplete="off" spellCheck={false} />
        </div>
        <label htmlFor={nameId}>{t('mailbox.bot.chatLabel')}</label>
        <div className="mailbox__form-row">
          <input id={nameId} type="text" name="chatName" value={chatName} maxLength={64} onChange={(e) => setChatName(e.target.value)}
            placeholder="@sandbox_user" autoComplete="off" />
          <Button type="submit" busy={state.kind === 'sending'}>{t('mailbox.bot.start')}</Button>
        </div>
      </form>
      {state.kind === 'answered' ? (
        <div className="mailbox__bot-reply" role="status">
          <p className="mailbox__bot-from">{t('mailbox.bot.replied')}</p>
          <pre data-testid="sandbox-bot-reply">{state.reply}</pre>
        </div>
      ) : null}
      {state.kind === 'error' ? <p className="mailbox__error" role="alert">{state.message}</p> : null}
    </section>
  );
}
