import { proxyLoginSchema, proxyPasswordSchema, type Port, type PortPatchRequest } from '@cellport/shared/schemas/catalog';
import * as z from 'zod/mini';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { useUpdatePort } from '../api/update-port';
import { errorText } from '../../../lib/translate-api-error';

/** Changes the proxy login and password, checked with the server's own rules before sending. */
export function CredentialsDialog({ port, open, onClose }: { port: Port; open: boolean; onClose: () => void }) {
  const { t } = useT(['proxies', 'errors']);
  const [login, setLogin] = useState(port.login);
  const [password, setPassword] = useState(port.password);
  const [problems, setProblems] = useState<{ login?: boolean; password?: boolean }>({});
  const update = useUpdatePort();
  const ids = { login: useId(), password: useId(), loginHint: useId(), loginError: useId(), passwordError: useId() };

  function save(event: React.FormEvent) {
    event.preventDefault();
    // Only what changed is checked and sent: a login or password from before today's rules stays as it is.
    const next = {
      login: login !== port.login && !z.safeParse(proxyLoginSchema, login.trim()).success,
      password: password !== port.password && !z.safeParse(proxyPasswordSchema, password.trim()).success,
    };
    setProblems(next);
    if (next.login || next.password) return;
    const patch: PortPatchRequest = {};
    if (login !== port.login) patch.login = login.trim();
    if (password !== port.password) patch.password = password.trim();
    if (!Object.keys(patch).length) { onClose(); return; }
    update.mutate({ id: port._id, patch }, {
      onSuccess: () => { toast.success(t('credentials.done')); onClose(); },
      onError: (error) => toast.error(errorText(t, error)),
    });
  }

  return (
    <Dialog open={open} onClose={onClose} size="sm" title={t('credentials.title')} description={t('credentials.text')}>
      <form onSubmit={save} noValidate>
        <div className="field">
          <label htmlFor={ids.login}>{t('login')}</label>
          <input
            id={ids.login} value={login} autoComplete="off" spellCheck={false}
            aria-invalid={problems.login || undefined} aria-describedby={problems.login ? `${ids.loginHint} ${ids.loginError}` : ids.loginHint}
            onChange={(e) => setLogin(e.target.value)}
          />
          <p id={ids.loginHint} className="field__hint">{t('credentials.loginHint')}</p>
          {problems.login ? <p id={ids.loginError} className="field__error">{t('validation.proxyLogin')}</p> : null}
        </div>
        <div className="field">
          <label htmlFor={ids.password}>{t('password')}</label>
          <input
            id={ids.password} value={password} autoComplete="off" spellCheck={false}
            aria-invalid={problems.password || undefined} aria-describedby={problems.password ? ids.passwordError : undefined}
            onChange={(e) => setPassword(e.target.value)}
          />
          {problems.password ? <p id={ids.passwordError} className="field__error">{t('validation.proxyPassword')}</p> : null}
        </div>
        <div className="px-dialog-actions">
          <Button variant="secondary" onClick={onClose}>{t('cancel')}</Button>
          <Button type="submit" busy={update.isPending}>{t('save')}</Button>
        </div>
      </form>
    </Dialog>
  );
}
