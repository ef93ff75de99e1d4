import { LoadingOverlay } from '../../components/ui/loading-overlay';
import { PageHeader } from '../../components/ui/page-header';
import { useT } from '../../lib/i18n';
import { ApiKeysCard } from '../documentation';
import { SavedCardsSection } from '../payments';
import { useMe } from './api/get-me';
import { PasswordCard } from './components/password-card';
import { ProfileCard } from './components/profile-card';
import { SessionsCard } from './components/sessions-card';
import { TelegramCard } from './components/telegram-card';
import { TwoFactorCard } from './components/two-factor-card';
import { WebhooksCard } from './components/webhooks-card';
import './account.css';

/** Account settings: profile, password, two-factor sign-in, saved cards, active sessions, API keys, webhooks, Telegram. */
export default function AccountPage() {
  const { t } = useT(['account', 'common', 'validation', 'errors']);
  const me = useMe();
  // The shell loaded the user before showing any page; this only covers a refetch after an error.
  if (!me.data) return <LoadingOverlay size="small" />;
  return (
    <section className="account-page">
      <PageHeader title={t('common:nav.account')} description={t('page.description')} />
      <div className="account-grid">
        <div className="account-grid__column">
          <ProfileCard key={`${me.data.name}|${me.data.company_name}`} me={me.data} />
          <TwoFactorCard me={me.data} />
        </div>
        <div className="account-grid__column">
          <PasswordCard />
        </div>
        <SavedCardsSection className="account-card account-card--wide" />
        <SessionsCard />
        <ApiKeysCard className="account-card account-card--wide" />
        <WebhooksCard />
        <TelegramCard />
      </div>
    </section>
  );
}
