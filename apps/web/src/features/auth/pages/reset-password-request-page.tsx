import { resetRequestFormSchema } from '@cellport/shared/schemas/auth';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { ApiError } from '../../../lib/api';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { sendResetPasswordToken } from '../api/send-reset-password-token';
import { FormAlert } from '../components/form-alert';
import { PublicLayout } from '../components/public-layout';
import { StatusIcon } from '../components/status-icon';
import { SubmitButton } from '../components/submit-button';
import { TextField } from '../components/text-field';
import { validateFields } from '../lib/field-errors';
import { translateMessage } from '../lib/message-key';
import { translateError } from '../lib/translate-error';

/** Spec §2/§8: enter an e-mail to request a reset link; success and failure are toasts. */
export default function ResetPasswordRequestPage() {
  const { t, language } = useT(['auth', 'validation', 'errors']);
  const [login, setLogin] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const result = validateFields(resetRequestFormSchema, { login });
    if (!result.ok) return setError(result.errors.login);
    setBusy(true);
    try {
      await sendResetPasswordToken({ login: result.data.login, language });
      toast.success(t('toast.resetSent'));
      setSentTo(result.data.login);
    } catch (e) {
      const apiError = e instanceof ApiError ? e : new ApiError(0, 'NETWORK', String(e));
      toast.error(translateError(t, apiError.code, apiError.message));
    } finally {
      setBusy(false);
    }
  }

  return (
    <PublicLayout t={t}>
      <StatusIcon kind="key" />
      <h1 className="auth-title">{t('resetRequest.title')}</h1>
      <p className="auth-lead">{t('resetRequest.lead')}</p>
      {sentTo && <FormAlert tone="success">{t('resetRequest.sent', { email: sentTo })}</FormAlert>}
      <form className="auth-form" noValidate onSubmit={submit}>
        <TextField
          name="login"
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          label={t('fields.email')}
          value={login}
          onChange={(e) => { setLogin(e.target.value); setError(undefined); }}
          error={error ? translateMessage(t, error) : undefined}
        />
        <SubmitButton busy={busy} busyLabel={t('resetRequest.sending')}>{t('resetRequest.submit')}</SubmitButton>
      </form>
      <p className="auth-switch">
        <Link href="/sign-in" className="auth-link">{t('links.backToSignIn')}</Link>
      </p>
    </PublicLayout>
  );
}
