import { useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useT } from '../../../lib/i18n';
import { rememberRecoveryCodesLeft } from '../../../lib/recovery-notice';
import { checkCredentials } from '../api/check-credentials';
import { FormAlert } from '../components/form-alert';
import { PublicLayout } from '../components/public-layout';
import { SubmitButton } from '../components/submit-button';
import { TextField } from '../components/text-field';
import { useHiddenCaptcha } from '../hooks/use-hidden-captcha';
import type { FieldErrors } from '../lib/field-errors';
import { nativePost } from '../lib/native-post';
import { returnUrl } from '../lib/return-url';
import { signInOutcome } from '../lib/sign-in-outcome';
import { errorCode, translateError } from '../lib/translate-error';

type Phase = 'idle' | 'verifying' | 'checking' | 'leaving';

// The shared-schema checks (and zod) load on the first focus in the form, not with the page (bundle budget).
let validation: typeof import('../lib/sign-in-validation') | null = null;
const loadValidation = async () => (validation ??= await import('../lib/sign-in-validation'));

/** Spec §2 sign-in: hidden captcha, credentials check, a two-factor code step, then the native POST /signin. */
export default function SignInPage() {
  const { t, language } = useT(['auth', 'validation', 'errors']);
  const [, navigate] = useLocation();
  const search = useSearch();
  const captcha = useHiddenCaptcha();
  const [values, setValues] = useState({ login: '', password: '', code: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(() => initialError(search, t));
  const [codeStep, setCodeStep] = useState(false);
  // On the code step: a recovery code in place of the app's code (issue 27, item 5).
  const [recovery, setRecovery] = useState(false);
  const [phase, setPhase] = useState<Phase>('idle');
  const notice = new URLSearchParams(search).get('notice');

  const change = (name: keyof typeof values) => (event: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [name]: event.target.value }));
    if (errors[name]) setErrors((e) => ({ ...e, [name]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (phase !== 'idle') return;
    setFormError(null);
    let check;
    try {
      check = (await loadValidation()).validateSignIn(values, codeStep, recovery);
    } catch {
      return setFormError(translateError(t, 'NETWORK', ''));
    }
    if (!check.ok) return setErrors(check.errors);
    setErrors({});
    // Spec §4: the captcha is passed once, then the credentials are checked.
    if (captcha.status !== 'passed') {
      setPhase('verifying');
      if (!(await captcha.ensure())) return setPhase('idle');
    }
    setPhase('checking');
    const body = check.data;
    try {
      let answer = await checkCredentials(body);
      if (answer.body?.code === 'CAPTCHA_REQUIRED' && (await captcha.ensure(true))) answer = await checkCredentials(body);
      const outcome = signInOutcome(answer, body.code !== '');
      if (outcome.kind === 'submit') {
        setPhase('leaving');
        if (answer.body?.recoveryCodesLeft !== undefined) rememberRecoveryCodesLeft(answer.body.recoveryCodesLeft);
        nativePost('/signin', { ...body, redirect: returnUrl(search, language), language });
        return;
      }
      setPhase('idle');
      if (outcome.kind === 'confirm-email') navigate(`/confirm-email/${encodeURIComponent(body.login)}`);
      else if (outcome.kind === 'code-step') setCodeStep(true);
      else setFormError(translateError(t, outcome.code, outcome.message));
    } catch (error) {
      setPhase('idle');
      setFormError(translateError(t, 'NETWORK', error instanceof Error ? error.message : String(error)));
    }
  }

  const switchCodeKind = () => {
    setRecovery((r) => !r);
    setValues((v) => ({ ...v, code: '' }));
    setErrors({});
    setFormError(null);
  };

  const leaveCodeStep = () => {
    setCodeStep(false);
    setRecovery(false);
    setValues((v) => ({ ...v, code: '' }));
    setErrors({});
    setFormError(null);
  };

  const fieldError = (name: string) => (errors[name] && validation ? validation.translateMessage(t, errors[name]) : undefined);

  return (
    <PublicLayout t={t}>
      <h1 className="auth-title">{codeStep ? t(recovery ? 'signIn.recoveryTitle' : 'signIn.codeTitle') : t('signIn.title')}</h1>
      <p className="auth-lead">{codeStep ? t(recovery ? 'signIn.recoveryLead' : 'signIn.codeLead') : t('signIn.lead')}</p>
      {notice === 'password-changed' && <FormAlert tone="success">{t('signIn.passwordChanged')}</FormAlert>}
      <form className="auth-form" noValidate onSubmit={submit} onFocus={() => void loadValidation()}>
        <div hidden={codeStep}>
          <TextField
            name="login"
            type="email"
            label={t('fields.email')}
            autoComplete="username"
            inputMode="email"
            required
            value={values.login}
            onChange={change('login')}
            error={fieldError('login')}
          />
          <TextField
            name="password"
            type="password"
            label={t('fields.password')}
            autoComplete="current-password"
            required
            value={values.password}
            onChange={change('password')}
            error={fieldError('password')}
            reveal={{ show: t('fields.showPassword'), hide: t('fields.hidePassword') }}
          />
          {/* After the password in the tab order, so the keyboard goes e-mail → password → sign in. */}
          <p className="auth-forgot">
            <Link href="/reset-password" className="auth-link auth-link--small">{t('signIn.forgot')}</Link>
          </p>
        </div>
        {codeStep && recovery && (
          <TextField
            autoFocus
            key="recovery"
            name="code"
            label={t('fields.recoveryCode')}
            hint={t('signIn.recoveryHint')}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={16}
            required
            value={values.code}
            onChange={change('code')}
            error={fieldError('code')}
            className="auth-field--code"
          />
        )}
        {codeStep && !recovery && (
          <TextField
            // The code step replaces the credentials on screen: focus moves straight to the one field left.
            autoFocus
            key="app"
            name="code"
            label={t('fields.code')}
            hint={t('signIn.codeHint')}
            autoComplete="one-time-code"
            inputMode="numeric"
            pattern="[0-9]*"
            // Room for a pasted "123 456": a limit of 6 would cut it to "123 45" before the space is dropped.
            maxLength={7}
            required
            value={values.code}
            onChange={(e) => change('code')({ target: { value: e.target.value.replace(/\D/g, '').slice(0, 6) } })}
            error={fieldError('code')}
            className="auth-field--code"
          />
        )}
        {codeStep && (
          <p className="auth-forgot">
            <button type="button" className="btn--link auth-inline-button" onClick={switchCodeKind}>
              {recovery ? t('signIn.useApp') : t('signIn.useRecovery')}
            </button>
          </p>
        )}
        {formError && <FormAlert tone="error">{formError}</FormAlert>}
        {captcha.status === 'failed' && phase === 'idle' && (
          <FormAlert tone="error">
            {t('signIn.captchaFailed')}{' '}
            <button type="button" className="btn--link auth-inline-button" onClick={() => void captcha.ensure(true)}>
              {t('signIn.captchaRetry')}
            </button>
          </FormAlert>
        )}
        <SubmitButton busy={phase !== 'idle'} busyLabel={phase === 'verifying' ? undefined : t('signIn.signingIn')}>
          {codeStep ? t('signIn.verify') : t('signIn.submit')}
        </SubmitButton>
        {phase === 'verifying' && (
          <p className="auth-status" role="status">
            <span className="spinner" aria-hidden="true" /> {t('signIn.verifyingBrowser')}
          </p>
        )}
        {codeStep && (
          <button type="button" className="btn btn--secondary auth-secondary" onClick={leaveCodeStep}>
            {t('signIn.otherAccount')}
          </button>
        )}
      </form>
      <p className="auth-switch">
        {t('signIn.noAccount')} <Link href="/sign-up" className="auth-link">{t('signIn.toSignUp')}</Link>
      </p>
    </PublicLayout>
  );
}

/** After a failed native post the server redirects back with ?error=CODE; show that error translated. */
function initialError(search: string, t: Parameters<typeof translateError>[0]): string | null {
  const code = new URLSearchParams(search).get('error');
  if (!code) return null;
  const known = errorCode(code, '');
  return known ? translateError(t, known, '') : t('auth:form.failed');
}
