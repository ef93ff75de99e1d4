import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { ApiError } from '../../../lib/api';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { sendConfirmationEmailLink } from '../api/send-confirmation-email-link';
import { PublicLayout } from '../components/public-layout';
import { StatusIcon } from '../components/status-icon';
import { SubmitButton } from '../components/submit-button';
import { decodeParam } from '../lib/route-param';
import { translateError } from '../lib/translate-error';

/** Spec §2: asks the person to confirm the e-mail, and sends the link again on request. */
export default function ConfirmEmailPage() {
  const { t, language } = useT(['auth', 'errors']);
  const email = decodeParam(useParams<{ email: string }>().email);
  const [sending, setSending] = useState(false);

  async function resend() {
    setSending(true);
    try {
      await sendConfirmationEmailLink({ login: email, language });
      toast.success(t('toast.linkSent'));
    } catch (error) {
      const e = error instanceof ApiError ? error : new ApiError(0, 'NETWORK', String(error));
      toast.error(translateError(t, e.code, e.message));
    } finally {
      setSending(false);
    }
  }

  return (
    <PublicLayout t={t}>
      <div className="auth-message">
        <StatusIcon kind="mail" />
        <h1 className="auth-title">{t('confirmEmail.title')}</h1>
        <p className="auth-lead">{t('confirmEmail.lead')}</p>
        <p className="auth-email">{email}</p>
        <p className="auth-muted">{t('confirmEmail.help')}</p>
        <SubmitButton type="button" onClick={() => void resend()} busy={sending} busyLabel={t('confirmEmail.sending')}>
          {t('confirmEmail.resend')}
        </SubmitButton>
      </div>
      <p className="auth-switch">
        <Link href="/sign-in" className="auth-link">{t('links.backToSignIn')}</Link>
      </p>
    </PublicLayout>
  );
}
