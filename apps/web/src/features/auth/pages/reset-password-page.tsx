import { resetPasswordFormSchema } from '@cellport/shared/schemas/auth';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { ApiError } from '../../../lib/api';
import { useT } from '../../../lib/i18n';
import { changePassword } from '../api/change-password';
import { FormAlert } from '../components/form-alert';
import { PublicLayout } from '../components/public-layout';
import { SubmitButton } from '../components/submit-button';
import { TextField } from '../components/text-field';
import { validateFields, type FieldErrors } from '../lib/field-errors';
import { translateMessage } from '../lib/message-key';
import { decodeParam } from '../lib/route-param';
import { errorCode, translateError } from '../lib/translate-error';

/** Spec §2: a new password, entered twice ('Password not equal'), set with the token from the e-mail. */
export default function ResetPasswordPage() {
  const { t } = useT(['auth', 'validation', 'errors']);
  const token = decodeParam(useParams<{ token: string }>().token);
  const [, navigate] = useLocation();
  const [values, setValues] = useState({ password: '', repeat: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<{ text: string; expired: boolean } | null>(null);
  const [busy, setBusy] = useState(false);

  const change = (name: keyof typeof values) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [name]: e.target.value }));
    setErrors((x) => ({ ...x, [name]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    const result = validateFields(resetPasswordFormSchema, values);
    if (!result.ok) return setErrors(result.errors);
    setBusy(true);
    try {
      await changePassword({ token, password: result.data.password });
      navigate('/sign-in?notice=password-changed');
    } catch (e) {
      const apiError = e instanceof ApiError ? e : new ApiError(0, 'NETWORK', String(e));
      const code = errorCode(apiError.code, apiError.message);
      // A 400 here means the token itself was refused (malformed); it is as dead as an expired one.
      const expired = code === 'TOKEN_INVALID' || (apiError.status === 400 && code === 'VALIDATION');
      setFailure({ text: expired ? t('errors:TOKEN_INVALID') : translateError(t, apiError.code, apiError.message), expired });
      setBusy(false);
    }
  }

  const fieldError = (name: string) => (errors[name] ? translateMessage(t, errors[name]) : undefined);
  const reveal = { show: t('fields.showPassword'), hide: t('fields.hidePassword') };

  return (
    <PublicLayout t={t}>
      <h1 className="auth-title">{t('resetPassword.title')}</h1>
      <p className="auth-lead">{t('resetPassword.lead')}</p>
      <form className="auth-form" noValidate onSubmit={submit}>
        <TextField
          name="password"
          type="password"
          autoComplete="new-password"
          required
          label={t('fields.newPassword')}
          hint={t('signUp.passwordHint')}
          reveal={reveal}
          value={values.password}
          onChange={change('password')}
          error={fieldError('password')}
        />
        <TextField
          name="repeat"
          type="password"
          autoComplete="new-password"
          required
          label={t('fields.repeatPassword')}
          reveal={reveal}
          value={values.repeat}
          onChange={change('repeat')}
          error={fieldError('repeat')}
        />
        {failure && (
          <FormAlert tone="error">
            {failure.text}
            {failure.expired && <> <Link href="/reset-password" className="auth-link">{t('resetPassword.requestNew')}</Link></>}
          </FormAlert>
        )}
        <SubmitButton busy={busy} busyLabel={t('resetPassword.saving')}>{t('resetPassword.submit')}</SubmitButton>
      </form>
      <p className="auth-switch">
        <Link href="/sign-in" className="auth-link">{t('links.backToSignIn')}</Link>
      </p>
    </PublicLayout>
  );
}
