import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { ApiError } from '../../../lib/api';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { useUser } from '../../../store/user-slice';
import { useChangePassword } from '../api/change-password';
import { errorText, fieldErrors } from '../lib/form-text';
import { loadAccountChecks, preloadAccountChecks } from '../lib/load-account-checks';

const empty = { current: '', password: '', repeat: '' };

/** Change the password (current, new, repeat); the server signs every other device out. */
export function PasswordCard() {
  const { t } = useT(['account', 'common', 'validation', 'errors']);
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const change = useChangePassword();
  const email = useUser().me?.email ?? '';
  const set = (field: keyof typeof empty) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    let checks;
    try { checks = await loadAccountChecks(); } catch { return toast.error(t('errors:NETWORK')); }
    const parsed = checks.checkPassword(values);
    if (!parsed.success) return setErrors(fieldErrors(t, parsed.error.issues));
    setErrors({});
    change.mutate(parsed.data, {
      onSuccess: () => { setValues(empty); toast.success(t('password.changed')); },
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'WRONG_CURRENT_PASSWORD') setErrors({ current: errorText(t, error) });
        else toast.error(errorText(t, error));
      },
    });
  }

  return (
    <section className="card account-card" aria-labelledby="account-password-title">
      <header className="account-card__header">
        <h2 id="account-password-title">{t('password.title')}</h2>
        <p>{t('password.description')}</p>
      </header>
      <form onSubmit={submit} onFocus={preloadAccountChecks} noValidate>
        {/* Lets password managers store the new password under the right account. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <TextField label={t('password.current')} type="password" name="current" autoComplete="current-password"
          value={values.current} onChange={set('current')} error={errors.current} required />
        <TextField label={t('password.new')} type="password" name="password" autoComplete="new-password"
          value={values.password} onChange={set('password')} error={errors.password} hint={t('password.rules')} required />
        <TextField label={t('password.repeat')} type="password" name="repeat" autoComplete="new-password"
          value={values.repeat} onChange={set('repeat')} error={errors.repeat} required />
        <div className="account-card__actions">
          <Button type="submit" busy={change.isPending}>{t('password.submit')}</Button>
        </div>
      </form>
    </section>
  );
}
