import './telegram-card.css';
import type { TelegramLink, TelegramStatus } from '@cellport/shared/schemas/telegram';
import {
  TELEGRAM_LINK_TTL_MINUTES, TELEGRAM_NOTIFICATION_KINDS, type TelegramNotificationKind,
} from '@cellport/shared/schemas/telegram-constants';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { dateTime } from '../../../lib/dates';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { useCreateTelegramLink, useTelegram, useTelegramKinds, useUnlinkTelegram } from '../api/telegram';
import { errorText } from '../lib/form-text';

/** Telegram (issue 16): link a chat with the operator's bot by a one-time deep link, unlink, choose the notifications. */
export function TelegramCard() {
  const { t, language } = useT(['telegram', 'common', 'errors', 'validation']);
  const [link, setLink] = useState<TelegramLink | null>(null);
  const status = useTelegram(link !== null);
  const create = useCreateTelegramLink();
  const unlink = useUnlinkTelegram();
  const [confirm, setConfirm] = useState(false);
  const data = status.data;

  return (
    <section className="card account-card account-card--wide" aria-labelledby="account-telegram-title">
      <header className="account-card__header">
        <h2 id="account-telegram-title">{t('title')}</h2>
        <p>{t('description')}</p>
      </header>
      {status.isPending ? <div className="account-card__loading"><Spinner label={t('common:loading')} /></div> : status.isError || !data ? (
        <p role="alert">{t('loadFailed')} <Button variant="link" size="sm" onClick={() => void status.refetch()}>{t('common:actions.retry')}</Button></p>
      ) : !data.available ? <p className="telegram__muted">{t('unavailable')}</p> : (
        <>
          {data.sandbox ? <p className="telegram__muted" data-testid="telegram-sandbox">{t('sandbox')}</p> : null}
          {data.linked ? (
            <>
              <div className="telegram__status" data-testid="telegram-status">
                <span className="badge badge--success">{t('linkedTo', { name: data.chatName ?? (data.botUsername ? `@${data.botUsername}` : 'Telegram') })}</span>
                {data.linkedAt ? <span className="telegram__muted">{t('linkedSince', { date: dateTime(data.linkedAt, language) })}</span> : null}
                <Button variant="danger" size="sm" onClick={() => setConfirm(true)}>{t('unlink')}</Button>
              </div>
              <KindsForm key={data.kinds.join(',')} status={data} />
            </>
          ) : (
            <>
              <p className="telegram__status" data-testid="telegram-status">{t('notLinked')}</p>
              <div className="account-card__actions account-card__actions--start">
                <Button busy={create.isPending} onClick={() => create.mutate(undefined, {
                  onSuccess: setLink, onError: (error) => toast.error(t('linkFailed', { reason: errorText(t, error) })),
                })}>{t('link')}</Button>
              </div>
              {link ? (
                <div className="telegram__link">
                  <p className="telegram__muted">{t('linkHint', { minutes: TELEGRAM_LINK_TTL_MINUTES })}</p>
                  <div className="telegram__link-row">
                    <a className="btn btn--secondary btn--sm" href={link.url} target="_blank" rel="noopener noreferrer">{t('linkOpen')}</a>
                    <code data-testid="telegram-link">{link.url}</code>
                    <CopyButton value={link.url} />
                  </div>
                  <p className="telegram__waiting"><Spinner size={16} label={t('linkWaiting')} /><span aria-hidden="true">{t('linkWaiting')}</span></p>
                </div>
              ) : null}
            </>
          )}
        </>
      )}
      <Dialog open={confirm} onClose={() => setConfirm(false)} size="sm" title={t('confirmUnlinkTitle')}
        description={t('confirmUnlinkText', { name: data?.chatName ?? 'Telegram' })}
        footer={<>
          <Button variant="secondary" onClick={() => setConfirm(false)}>{t('cancel')}</Button>
          <Button variant="danger" busy={unlink.isPending} onClick={() => unlink.mutate(undefined, {
            onSuccess: () => { toast.success(t('unlinked')); setConfirm(false); setLink(null); },
            onError: (error) => toast.error(t('unlinkFailed', { reason: errorText(t, error) })),
          })}>{t('unlink')}</Button>
        </>} />
    </section>
  );
}

function KindsForm({ status }: { status: TelegramStatus }) {
  const { t } = useT(['telegram', 'common', 'errors', 'validation']);
  const save = useTelegramKinds();
  const [kinds, setKinds] = useState<string[]>(status.kinds);
  const toggle = (kind: string) => setKinds((list) => (list.includes(kind) ? list.filter((k) => k !== kind) : [...list, kind]));
  return (
    <form onSubmit={(event) => {
      event.preventDefault();
      save.mutate(kinds as TelegramNotificationKind[], {
        onSuccess: () => toast.success(t('saved')),
        onError: (error) => toast.error(t('saveFailed', { reason: errorText(t, error) })),
      });
    }}>
      <fieldset className="telegram__kinds">
        <legend className="account-card__label">{t('kinds')}</legend>
        {TELEGRAM_NOTIFICATION_KINDS.map((kind) => (
          <label key={kind} className="telegram__kind">
            <input type="checkbox" checked={kinds.includes(kind)} onChange={() => toggle(kind)} /> {t(`kind.${kind}`)}
          </label>
        ))}
      </fieldset>
      <div className="account-card__actions account-card__actions--start">
        <Button type="submit" variant="secondary" busy={save.isPending}>{t('save')}</Button>
      </div>
    </form>
  );
}
