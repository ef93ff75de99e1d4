import { useQuery } from '@tanstack/react-query';
import {
  TELEGRAM_TOKEN_PATTERN, type AdminTelegramPatchRequest, type AdminTelegramResponse,
} from '@cellport/shared/schemas/admin/telegram';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n';
import { ADMIN_KEY, adminGet, adminPatch } from '../api/admin-client';
import { useAdminMutation } from '../api/use-admin-mutation';
import { QueryView } from './query-view';

const useAdminTelegram = () =>
  useQuery({ queryKey: [ADMIN_KEY, 'telegram'], queryFn: () => adminGet<AdminTelegramResponse>('/telegram') });
const updateTelegram = (body: AdminTelegramPatchRequest) => adminPatch<AdminTelegramResponse>('/telegram', body);

/** Console → Settings → Telegram bot: the token in use (a hint only), a new token (write-only), polling or webhook. */
export function TelegramSettings() {
  const query = useAdminTelegram();
  return <QueryView query={query}>{(data) => <TelegramForm data={data} />}</QueryView>;
}

function TelegramForm({ data }: { data: AdminTelegramResponse }) {
  const { t } = useT(['telegram', 'admin']);
  const [token, setToken] = useState('');
  const [mode, setMode] = useState(data.mode);
  const [touched, setTouched] = useState(false);
  useEffect(() => { setMode(data.mode); }, [data]);
  const save = useAdminMutation(updateTelegram, { successKey: 'telegram:console.saved', onSuccess: () => { setToken(''); setTouched(false); } });
  const tokenOk = !token.trim() || TELEGRAM_TOKEN_PATTERN.test(token.trim());
  const source = data.source === 'console' ? t('console.sourceConsole', { hint: data.tokenHint })
    : data.source === 'env' ? t('console.sourceEnv', { hint: data.tokenHint }) : t('console.sourceNone');
  return (
    <form className="card admin-section" aria-labelledby="settings-telegram" noValidate onSubmit={(e) => {
      e.preventDefault();
      setTouched(true);
      if (!tokenOk) return;
      save.mutate({ mode, ...(token.trim() ? { token: token.trim() } : {}) });
    }}>
      <h2 id="settings-telegram">{t('console.title')}</h2>
      <p className="admin-muted">{t('console.description')}</p>
      <dl className="admin-dl">
        <dt>{t('console.source')}</dt><dd>{source}</dd>
        <dt>{t('console.bot')}</dt><dd>{data.botUsername ? `@${data.botUsername}` : '—'}</dd>
      </dl>
      {data.sandbox ? <p className="admin-muted">{t('console.sandboxNote')}</p> : null}
      <TextField label={t('console.token')} value={token} onChange={(e) => setToken(e.target.value)} autoComplete="off"
        hint={t('console.tokenHint')} error={touched && !tokenOk ? t('console.tokenError') : undefined} />
      <fieldset className="admin-fieldset">
        <legend>{t('console.mode')}</legend>
        {(['polling', 'webhook'] as const).map((m) => (
          <label key={m} style={{ display: 'block', margin: '0 0 .5rem' }}>
            <input type="radio" name="telegram-mode" value={m} checked={mode === m} onChange={() => setMode(m)} />
            {' '}{t(m === 'polling' ? 'console.modePolling' : 'console.modeWebhook')}
          </label>
        ))}
      </fieldset>
      <div style={{ display: 'flex', gap: '.5rem', flexWrap: 'wrap' }}>
        <Button type="submit" busy={save.isPending}>{t('console.save')}</Button>
        {data.source === 'console' ? (
          <Button variant="secondary" busy={save.isPending} onClick={() => save.mutate({ token: null })}>{t('console.clearToken')}</Button>
        ) : null}
      </div>
    </form>
  );
}
