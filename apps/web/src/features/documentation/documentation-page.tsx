import { Link } from 'wouter';
import { EmptyState } from '../../components/ui/empty-state';
import { icons } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { useT } from '../../lib/i18n';

// Until its issue fills this page: the real title and an honest empty state, nothing invented.
export default function DocumentationPage() {
  const { t } = useT(['pages', 'common']);
  return (
    <section>
      <PageHeader title={t('common:nav.documentation')} description={t('documentation.description')} />
      <div className="card">
        <EmptyState
          icon={icons.documentation}
          title={t('documentation.emptyTitle')}
          action={<Link href="/dashboard" className="btn btn--secondary">{t('common:actions.backToDashboard')}</Link>}
        >
          <p>{t('documentation.emptyText')}</p>
        </EmptyState>
      </div>
    </section>
  );
}
