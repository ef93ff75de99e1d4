import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '@cellport/shared/schemas/subscriptions';
import { useState } from 'react';
import { useT } from '../../../lib/i18n';
import { PageTitle } from '../components/page-title';
import { SelectField } from '../components/select-field';
import { SubscriptionsTable } from '../components/subscriptions-table';

/** Every customer's card subscriptions, by status; each can be ended from here (audited). */
export function SubscriptionsPage() {
  const { t } = useT('admin');
  const [status, setStatus] = useState<SubscriptionStatus | undefined>(undefined);
  return (
    <>
      <PageTitle title={t('nav.subscriptions')} description={t('subscriptions.description')} />
      <div className="admin-toolbar">
        <SelectField label={t('fields.status')} value={status ?? ''} placeholder={t('all')} onChange={(v) => setStatus((v || undefined) as SubscriptionStatus | undefined)}
          options={SUBSCRIPTION_STATUSES.filter((s) => s !== 'incomplete').map((s) => ({ value: s, label: t(`subscriptions.status.${s}`) }))} />
      </div>
      <SubscriptionsTable filter={{ status }} showCustomer />
    </>
  );
}
