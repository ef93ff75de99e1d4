import { Link } from 'wouter';
import { EmptyState } from '../../components/ui/empty-state';
import { icons } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { useT } from '../../lib/i18n';

// Until its issue fills this page: the real title and an honest empty state, nothing invented.
export default function PurchasesPage() {
  const { t } = useT(['pages', 'common']);
  return (
    <section>
      <PageHeader title={t('common:nav.purchases')} description={t('purchases.description')} />
      <div className="card">
        <EmptyState
          icon={icons.purchases}
          title={t('purchases.emptyTitle')}
          action={<Link href="/add-proxy" className="btn btn--secondary">{t('common:actions.buyProxies')}</Link>}
        >
          <p>{t('purchases.emptyText')}</p>
        </EmptyState>
      </div>
    </section>
  );
}
