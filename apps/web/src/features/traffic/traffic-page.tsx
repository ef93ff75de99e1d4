import { Link } from 'wouter';
import { EmptyState } from '../../components/ui/empty-state';
import { icons } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { useT } from '../../lib/i18n';

// Until its issue fills this page: the real title and an honest empty state, nothing invented.
export default function TrafficPage() {
  const { t } = useT(['pages', 'common']);
  return (
    <section>
      <PageHeader title={t('common:nav.traffic')} description={t('traffic.description')} />
      <div className="card">
        <EmptyState
          icon={icons.traffic}
          title={t('traffic.emptyTitle')}
          action={<Link href="/proxies" className="btn btn--secondary">{t('common:nav.proxies')}</Link>}
        >
          <p>{t('traffic.emptyText')}</p>
        </EmptyState>
      </div>
    </section>
  );
}
