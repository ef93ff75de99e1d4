import { Link } from 'wouter';
import { EmptyState } from '../../components/ui/empty-state';
import { icons } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { useT } from '../../lib/i18n';

// Until its issue fills this page: the real title and an honest empty state, nothing invented.
export default function PendingPaymentsPage() {
  const { t } = useT(['pages', 'common']);
  return (
    <section>
      <PageHeader title={t('common:nav.pendingPayments')} description={t('pendingPayments.description')} />
      <div className="card">
        <EmptyState
          icon={icons.pendingPayments}
          title={t('pendingPayments.emptyTitle')}
          action={<Link href="/billing-renewals" className="btn btn--secondary">{t('common:nav.billing')}</Link>}
        >
          <p>{t('pendingPayments.emptyText')}</p>
        </EmptyState>
      </div>
    </section>
  );
}
