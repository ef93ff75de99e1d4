import { useQuery } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useT } from '../../../lib/i18n';
import { portQuotasQuery } from '../api/get-quotas';
import { QuotaMeter } from './quota-meter';

/** The Traffic page's "This month": each port's traffic since the 1st (UTC) against its quota. */
export function MonthUsage() {
  const { t } = useT(['traffic', 'common']);
  const query = useQuery(portQuotasQuery);
  let body;
  if (query.isPending) body = <Spinner size={20} label={t('common:loading')} />;
  else if (query.isError) {
    body = (
      <div role="alert">
        <p>{t('month.loadFailed')}</p>
        <Button variant="secondary" onClick={() => void query.refetch()}>{t('common:actions.retry')}</Button>
      </div>
    );
  } else if (query.data.data.length === 0) return null;
  else {
    body = (
      <ul className="month-usage">
        {query.data.data.map((q) => (
          <li key={q.port_id}>
            <h3 className="month-usage__name">{q.modem_name}</h3>
            <QuotaMeter quota={q} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <div className="card traffic-card" data-testid="month-usage">
      <h2 className="traffic-card__title">{t('month.title')}</h2>
      <p className="traffic-month__text">{t('month.text')}</p>
      {body}
    </div>
  );
}
