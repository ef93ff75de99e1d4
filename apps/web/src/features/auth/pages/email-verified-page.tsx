import { Link, useParams } from 'wouter';
import { useT } from '../../../lib/i18n';
import { PublicLayout } from '../components/public-layout';
import { StatusIcon } from '../components/status-icon';
import { decodeParam } from '../lib/route-param';

/** Spec §2: the e-mail is verified; Continue leads to /{language} (the dashboard, via sign-in when needed). */
export default function EmailVerifiedPage() {
  const { t } = useT('auth');
  const email = decodeParam(useParams<{ email: string }>().email);
  return (
    <PublicLayout t={t}>
      <div className="auth-message">
        <StatusIcon kind="check" />
        <h1 className="auth-title">{t('emailVerified.title')}</h1>
        <p className="auth-lead">{t('emailVerified.lead')}</p>
        <p className="auth-email">{email}</p>
        <Link href="/" className="btn auth-submit">{t('emailVerified.continue')}</Link>
      </div>
    </PublicLayout>
  );
}
