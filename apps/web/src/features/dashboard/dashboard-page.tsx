import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { Button } from '../../components/ui/button';
import { icons } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { formatBytes } from '../../lib/bytes';
import { useT } from '../../lib/i18n';
import { useUser } from '../../store/user-slice';
import { dashboardQuery } from './api/get-dashboard';
import { BalanceCard } from './components/balance-card';
import { ExpiringCard } from './components/expiring-card';
import { PortsCard } from './components/ports-card';
import { RecentNotifications } from './components/recent-notifications';
import { StatCard } from './components/stat-card';
import './dashboard.css';

/**
 * The dashboard (GET /api/v1/dashboard + the account in the store): balance, active ports, ports expiring soon,
 * traffic of the last 24 hours, recent notifications, and shortcuts to buy and renew. Realtime events keep it
 * current without a reload.
 */
export default function DashboardPage() {
  const { t, language } = useT(['dashboard', 'common']);
  const name = useUser().me?.name ?? '';
  const query = useQuery(dashboardQuery);

  const shortcuts = [
    { href: '/add-proxy', icon: icons.addProxy, title: t('shortcuts.buyTitle'), text: t('shortcuts.buyText') },
    { href: '/billing-renewals', icon: icons.renew, title: t('shortcuts.renewTitle'), text: t('shortcuts.renewText') },
  ];

  let body;
  if (query.isPending) {
    body = <div className="dash-loading"><Spinner size={28} label={t('common:loading')} /></div>;
  } else if (query.isError) {
    body = (
      <div className="card dash-error" role="alert">
        <p>{t('loadFailed')}</p>
        <Button variant="secondary" onClick={() => void query.refetch()}>{t('common:actions.retry')}</Button>
      </div>
    );
  } else {
    const data = query.data;
    const noPorts = data.activePorts === 0;
    body = (
      <>
        <div className="dash-grid dash-grid--stats">
          <StatCard
            id="dash-active-title"
            title={t('active.title')}
            value={<span data-testid="dashboard-active-ports">{data.activePorts}</span>}
            detail={noPorts ? t('active.none') : null}
            link={noPorts ? { href: '/add-proxy', text: t('shortcuts.buyTitle') } : { href: '/proxies', text: t('active.open') }}
          />
          <StatCard
            id="dash-traffic-title"
            title={t('traffic.title')}
            value={
              <dl className="dash-traffic">
                <div><dt>{t('traffic.in')}</dt><dd>{formatBytes(data.traffic24h.bytesIn, language)}</dd></div>
                <div><dt>{t('traffic.out')}</dt><dd>{formatBytes(data.traffic24h.bytesOut, language)}</dd></div>
              </dl>
            }
            link={{ href: '/traffic', text: t('traffic.open') }}
          />
          <ExpiringCard items={data.expiringSoon} />
        </div>
      </>
    );
  }

  return (
    <section className="dash">
      <PageHeader title={t('welcome', { name })} description={t('subtitle')} />
      <div className="dash-grid dash-grid--top">
        <BalanceCard />
        <nav className="dash-shortcuts" aria-label={t('shortcuts.label')}>
          {shortcuts.map((s) => (
            <Link key={s.href} href={s.href} className="card dash-shortcut">
              <span className="dash-shortcut__icon" aria-hidden="true">{s.icon}</span>
              <span className="dash-shortcut__title">{s.title}</span>
              <span className="dash-shortcut__text">{s.text}</span>
            </Link>
          ))}
        </nav>
      </div>
      {body}
      {/* These two read the store (fed by polling and realtime), so they stay live even when the figures fail. */}
      <div className="dash-grid">
        <RecentNotifications initial={query.data?.recentNotifications ?? []} />
        <PortsCard />
      </div>
    </section>
  );
}
