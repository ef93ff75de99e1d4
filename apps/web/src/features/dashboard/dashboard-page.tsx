import { Link } from 'wouter';
import { EmptyState } from '../../components/ui/empty-state';
import { icons } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { useT } from '../../lib/i18n';
import { formatCoin, formatUsd } from '../../lib/money';
import { useAppStore } from '../../store';
import './dashboard.css';

/** The dashboard: a welcome, the balances, shortcuts, and honest empty states until proxies and payments exist. */
export default function DashboardPage() {
  const { t } = useT(['pages', 'common']);
  const name = useAppStore((s) => s.user.me?.name ?? '');
  const account = useAppStore((s) => s.account);
  const usd = formatUsd(account?.usdt.balance);
  const btc = formatCoin(account?.btc.balance, 'btc');

  const shortcuts = [
    { href: '/add-proxy', icon: icons.addProxy, title: t('dashboard.buyTitle'), text: t('dashboard.buyText') },
    { href: '/billing-renewals', icon: icons.renew, title: t('dashboard.renewTitle'), text: t('dashboard.renewText') },
    { href: '/account', icon: icons.shield, title: t('dashboard.securityTitle'), text: t('dashboard.securityText') },
  ];

  return (
    <section className="dashboard">
      <PageHeader title={t('dashboard.welcome', { name })} description={t('dashboard.subtitle')} />

      <div className="dashboard__grid">
        <article className="card dashboard-balance" aria-labelledby="dashboard-balance-title">
          <h2 id="dashboard-balance-title" className="dashboard__card-title">{t('dashboard.balanceTitle')}</h2>
          <p className="dashboard-balance__amount">{usd ?? '—'}</p>
          <dl className="dashboard-balance__coins">
            <div><dt>USDT</dt><dd>{formatCoin(account?.usdt.balance, 'usdt') ?? '—'}</dd></div>
            <div><dt>BTC</dt><dd>{btc ?? '—'}</dd></div>
          </dl>
          {account ? null : <p className="dashboard__hint">{t('dashboard.balanceUnavailable')}</p>}
        </article>

        <nav className="dashboard-shortcuts" aria-label={t('dashboard.shortcuts')}>
          {shortcuts.map((s) => (
            <Link key={s.href} href={s.href} className="card dashboard-shortcut">
              <span className="dashboard-shortcut__icon">{s.icon}</span>
              <span className="dashboard-shortcut__title">{s.title}</span>
              <span className="dashboard-shortcut__text">{s.text}</span>
            </Link>
          ))}
        </nav>
      </div>

      <div className="dashboard__grid dashboard__grid--even">
        <article className="card" aria-labelledby="dashboard-proxies-title">
          <h2 id="dashboard-proxies-title" className="dashboard__card-title">{t('common:nav.proxies')}</h2>
          <EmptyState
            icon={icons.proxies}
            title={t('proxies.emptyTitle')}
            action={<Link href="/add-proxy" className="btn">{t('common:actions.buyProxies')}</Link>}
          >
            <p>{t('dashboard.proxiesEmpty')}</p>
          </EmptyState>
        </article>
        <article className="card" aria-labelledby="dashboard-payments-title">
          <h2 id="dashboard-payments-title" className="dashboard__card-title">{t('dashboard.paymentsTitle')}</h2>
          <EmptyState
            icon={icons.purchases}
            title={t('dashboard.paymentsEmptyTitle')}
            action={<Link href="/purchases" className="btn btn--secondary">{t('common:nav.purchases')}</Link>}
          >
            <p>{t('dashboard.paymentsEmpty')}</p>
          </EmptyState>
        </article>
      </div>
    </section>
  );
}
