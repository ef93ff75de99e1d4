import { Link } from 'wouter';
import { EmptyState } from '../../components/ui/empty-state';
import { icons } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { useT } from '../../lib/i18n';

// Until its issue fills this page: the real title and an honest empty state, nothing invented.
export default function BillingPage() {
  const { t } = useT(['pages', 'common']);
  return (
    <section>
      <PageHeader title={t('common:nav.billing')} description={t('billing.description')} />
      <div className="card">
        <EmptyState
          icon={icons.billing}
          title={t('billing.emptyTitle')}
          action={<Link href="/proxies" className="btn btn--secondary">{t('common:nav.proxies')}</Link>}
        >
          <p>{t('billing.emptyText')}</p>
        </EmptyState>
      </div>
    </section>
  );
}
