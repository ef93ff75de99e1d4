import { AUTH_ERRORS } from '@cellport/shared/errors/auth';
import { signUpAccountSchema, signUpTermsSchema, signUpUsageSchema, type SignUpRequest } from '@cellport/shared/schemas/auth';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { ApiError } from '../../../lib/api';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { checkLogin } from '../api/check-login';
import { signUp } from '../api/sign-up';
import { CheckboxField } from '../components/checkbox-field';
import { FormAlert } from '../components/form-alert';
import { PublicLayout } from '../components/public-layout';
import { SignUpPitch } from '../components/sign-up-pitch';
import { StepIndicator } from '../components/step-indicator';
import { SubmitButton } from '../components/submit-button';
import { TextAreaField } from '../components/text-area-field';
import { TextField } from '../components/text-field';
import { useHiddenCaptcha } from '../hooks/use-hidden-captcha';
import { validateFields, type FieldErrors } from '../lib/field-errors';
import { translateMessage } from '../lib/message-key';
import { inviteToken } from '../lib/route-param';
import { translateError } from '../lib/translate-error';

const STEPS = ['account', 'usage', 'terms'] as const;
const empty = { name: '', company_name: '', login: '', password: '', purpose: '', website_wishlist: '', terms: false, marketing: false };
type Values = typeof empty;

/** Spec §2/§4 sign-up: three steps, each Next Step only when its step validates; submit only on step 3. */
export default function SignUpPage() {
  const { t, language } = useT(['auth', 'validation', 'errors']);
  const [, navigate] = useLocation();
  const [step, setStep] = useState(0);
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [loginError, setLoginError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Issue 26: sign-up is behind the same hidden captcha as sign-in; it starts solving when the page opens.
  const captcha = useHiddenCaptcha();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);

  // Moving between steps puts focus on the new step's heading, so keyboard and screen-reader users follow along.
  useEffect(() => {
    if (moved.current) headingRef.current?.focus();
    moved.current = true;
  }, [step]);

  const set = <K extends keyof Values>(name: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [name]: value }));
    if (errors[name]) setErrors((e) => ({ ...e, [name]: undefined }));
    if (name === 'login' || name === 'name') setLoginError(null);
  };
  const text = (name: keyof Values) => ({
    name,
    value: values[name] as string,
    onChange: (e: { target: { value: string } }) => set(name, e.target.value),
    error: errors[name] ? translateMessage(t, errors[name]) : undefined,
  });

  async function nextFromAccount() {
    const result = validateFields(signUpAccountSchema, values);
    if (!result.ok) return setErrors(result.errors);
    setBusy(true);
    try {
      // Spec §5: before step 1 passes, the server checks the login and name; its error is shown.
      await checkLogin({ login: result.data.login, name: result.data.name });
      setStep(1);
    } catch (error) {
      const e = error instanceof ApiError ? error : new ApiError(0, 'NETWORK', String(error));
      setLoginError(translateError(t, e.code, e.message));
    } finally {
      setBusy(false);
    }
  }

  function nextFromUsage() {
    const result = validateFields(signUpUsageSchema, values);
    if (!result.ok) return setErrors(result.errors);
    setStep(2);
  }

  /** Signs up with a captcha pass; a pass the server no longer takes (its uses spent) is solved afresh, once. */
  async function signUpPassed(body: SignUpRequest) {
    const required = new ApiError(403, 'CAPTCHA_REQUIRED', AUTH_ERRORS.CAPTCHA_REQUIRED);
    if (!(await captcha.ensure())) throw required;
    try {
      return await signUp(body);
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'CAPTCHA_REQUIRED')) throw error;
      if (!(await captcha.ensure(true))) throw required;
      return signUp(body);
    }
  }

  async function createAccount() {
    const terms = validateFields(signUpTermsSchema, values);
    const account = validateFields(signUpAccountSchema, values);
    const usage = validateFields(signUpUsageSchema, values);
    if (!terms.ok) return setErrors(terms.errors);
    if (!account.ok || !usage.ok) return setStep(account.ok ? 1 : 0);
    setBusy(true);
    try {
      const { email } = await signUpPassed({
        ...account.data,
        ...usage.data,
        inviteLinkToken: inviteToken(window.location.hash),
        language,
        marketing: values.marketing,
      });
      navigate(`/confirm-email/${encodeURIComponent(email)}`);
    } catch (error) {
      // Spec §8: registration errors appear as toasts.
      const e = error instanceof ApiError ? error : new ApiError(0, 'NETWORK', String(error));
      toast.error(translateError(t, e.code, e.message));
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (step === 0) void nextFromAccount();
    else if (step === 1) nextFromUsage();
    else void createAccount();
  }

  const back = () => { setErrors({}); setStep((s) => Math.max(0, s - 1)); };
  const stepNames = STEPS.map((key) => t(`signUp.steps.${key}`));
  const canCreate = values.terms && values.marketing;

  return (
    <PublicLayout t={t} aside={<SignUpPitch t={t} />}>
      <h1 className="auth-title">{t('signUp.title')}</h1>
      <p className="auth-lead">{t('signUp.lead')}</p>
      <StepIndicator steps={stepNames} current={step} label={t('signUp.stepsLabel')} stepOf={(n) => t('signUp.stepOf', { n, total: STEPS.length })} />
      <form className="auth-form" noValidate onSubmit={submit}>
        <h2 className="auth-step-title" ref={headingRef} tabIndex={-1}>{stepNames[step]}</h2>
        {step === 0 && (
          <>
            <TextField label={t('fields.name')} autoComplete="name" required {...text('name')} />
            <TextField label={t('fields.company')} autoComplete="organization" {...text('company_name')} />
            <TextField
              label={t('fields.email')}
              type="email"
              inputMode="email"
              autoComplete="email"
              required
              {...text('login')}
              error={text('login').error ?? loginError ?? undefined}
            />
            <TextField
              label={t('fields.password')}
              type="password"
              autoComplete="new-password"
              required
              hint={t('signUp.passwordHint')}
              reveal={{ show: t('fields.showPassword'), hide: t('fields.hidePassword') }}
              {...text('password')}
            />
          </>
        )}
        {step === 1 && (
          <>
            <TextAreaField label={t('fields.purpose')} hint={t('signUp.purposeHint')} required rows={4} {...text('purpose')} />
            <TextAreaField label={t('fields.websites')} hint={t('signUp.websitesHint')} {...text('website_wishlist')} />
          </>
        )}
        {step === 2 && (
          <>
            <p className="auth-terms-text">{t('signUp.termsText')}</p>
            {/* A new tab keeps what the customer typed in steps 1 and 2. */}
            <ul className="auth-terms-links">
              <li><a href={`/${language}/terms`} target="_blank" rel="noopener" className="auth-link">
                {t('signUp.readTerms')} <span className="visually-hidden">{t('signUp.newTab')}</span></a></li>
              <li><a href={`/${language}/refund-policy`} target="_blank" rel="noopener" className="auth-link">
                {t('signUp.readRefund')} <span className="visually-hidden">{t('signUp.newTab')}</span></a></li>
            </ul>
            <CheckboxField
              name="terms"
              label={t('fields.terms')}
              checked={values.terms}
              onChange={(e) => set('terms', e.target.checked)}
              error={errors.terms ? translateMessage(t, errors.terms) : undefined}
            />
            <CheckboxField
              name="marketing"
              label={t('fields.marketing')}
              checked={values.marketing}
              onChange={(e) => set('marketing', e.target.checked)}
              error={errors.marketing ? translateMessage(t, errors.marketing) : undefined}
            />
            {!canCreate && <FormAlert tone="info">{t('signUp.bothBoxes')}</FormAlert>}
          </>
        )}
        <div className="auth-actions">
          {step > 0 && (
            <button type="button" className="btn btn--secondary" onClick={back} disabled={busy}>{t('signUp.back')}</button>
          )}
          {step < 2 ? (
            <SubmitButton busy={busy} busyLabel={t('signUp.checking')}>{t('signUp.next')}</SubmitButton>
          ) : (
            <SubmitButton busy={busy} busyLabel={t('signUp.creating')} disabled={!canCreate}>{t('signUp.create')}</SubmitButton>
          )}
        </div>
      </form>
      <p className="auth-switch">
        {t('signUp.haveAccount')} <Link href="/sign-in" className="auth-link">{t('signUp.toSignIn')}</Link>
      </p>
    </PublicLayout>
  );
}
