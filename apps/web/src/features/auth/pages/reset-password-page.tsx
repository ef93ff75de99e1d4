import { resetPasswordFormSchema } from '@cellport/shared/schemas/auth';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { ApiError } from '../../../lib/api';
import { useT } from '../../../lib/i18n';
import { changePassword } from '../api/change-password';
import { checkResetLink } from '../api/check-reset-link';
import { CheckboxField } from '../components/checkbox-field';
import { FormAlert } from '../components/form-alert';
import { PublicLayout } from '../components/public-layout';
import { SubmitButton } from '../components/submit-button';
import { TextField } from '../components/text-field';
import { validateFields, type FieldErrors } from '../lib/field-errors';
import { translateMessage } from '../lib/message-key';
import { decodeParam } from '../lib/route-param';
import { errorCode, translateError } from '../lib/translate-error';

const DEAD_LINK_CODES: ReadonlySet<string> = new Set(['RESET_LINK_USED', 'RESET_LINK_EXPIRED', 'TOKEN_INVALID']);
/** The code that says why a reset link cannot set a password, or null when the failure is something else. */
function deadLinkCode(error: ApiError): string | null {
  const code = errorCode(error.code, error.message);
  if (code && DEAD_LINK_CODES.has(code)) return code;
  // A 400 VALIDATION means the token itself was refused (malformed); it is as dead as an unknown one.
  return error.status === 400 && code === 'VALIDATION' ? 'TOKEN_INVALID' : null;
}
const asApiError = (e: unknown) => (e instanceof ApiError ? e : new ApiError(0, 'NETWORK', String(e)));

/**
 * Spec §2: a new password, entered twice ('Password not equal'), set with the token from the e-mail. The link is
 * checked when the page opens, so a used or expired one says so before anything is typed (issue 27).
 */
export default function ResetPasswordPage() {
  const { t } = useT(['auth', 'validation', 'errors']);
  const token = decodeParam(useParams<{ token: string }>().token);
  const [, navigate] = useLocation();
  const [values, setValues] = useState({ password: '', repeat: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<{ text: string; expired: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [deadLink, setDeadLink] = useState<string | null>(null);
  // Whoever knew the old password may have made API keys or linked Telegram: end those too unless unticked (issue 26).
  const [revokeAccess, setRevokeAccess] = useState(true);

  useEffect(() => {
    let current = true;
    // Only a definite answer hides the form: on a network error the customer can still try, and the save will tell.
    checkResetLink(token).catch((e: unknown) => { if (current) setDeadLink(deadLinkCode(asApiError(e))); });
    return () => { current = false; };
  }, [token]);

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
      await changePassword({ token, password: result.data.password, revokeAccess });
      navigate('/sign-in?notice=password-changed');
    } catch (e) {
      const apiError = asApiError(e);
      const dead = deadLinkCode(apiError);
      setFailure({ text: dead ? t(`errors:${dead}`) : translateError(t, apiError.code, apiError.message), expired: dead !== null });
      setBusy(false);
    }
  }

  const fieldError = (name: string) => (errors[name] ? translateMessage(t, errors[name]) : undefined);
  const reveal = { show: t('fields.showPassword'), hide: t('fields.hidePassword') };

  if (deadLink) {
    return (
      <PublicLayout t={t}>
        <h1 className="auth-title">{t('resetPassword.deadTitle')}</h1>
        <FormAlert tone="error">{t(`errors:${deadLink}`)}</FormAlert>
        <p className="auth-switch">
          <Link href="/reset-password" className="auth-link">{t('resetPassword.requestNew')}</Link>
        </p>
        <p className="auth-switch">
          <Link href="/sign-in" className="auth-link">{t('links.backToSignIn')}</Link>
        </p>
      </PublicLayout>
    );
  }

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
        <CheckboxField
          name="revokeAccess"
          label={t('resetPassword.revokeAccess')}
          checked={revokeAccess}
          onChange={(e) => setRevokeAccess(e.target.checked)}
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
