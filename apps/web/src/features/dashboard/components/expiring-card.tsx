import type { DashboardResponse } from '@cellport/shared/schemas/dashboard';
import { Link } from 'wouter';
import { dateTime, relativeTime } from '../../../lib/dates';
import { useT } from '../../../lib/i18n';

/** Ports whose term ends soon, each a reason to go to Billing & Renewals. */
export function ExpiringCard({ items }: { items: DashboardResponse['expiringSoon'] }) {
  const { t, language } = useT('dashboard');
  return (
    <article className="card" aria-labelledby="dash-expiring-title">
      <h2 id="dash-expiring-title" className="dash-card__title">{t('expiring.title')}</h2>
      {items.length === 0 ? <p className="dash-card__empty">{t('expiring.empty')}</p> : (
        <ul className="dash-list">
          {items.map((port) => (
            <li key={port._id} className="dash-list__row">
              <span className="dash-list__main">{port.modem_name}</span>
              <time className="dash-list__side dash-list__side--warn" dateTime={port.expiresAt} title={dateTime(port.expiresAt, language)}>
                {t('expiring.ends', { when: relativeTime(port.expiresAt, language) })}
              </time>
            </li>
          ))}
        </ul>
      )}
      <Link href="/billing-renewals" className={items.length ? 'btn btn--sm dash-card__action' : 'dash-card__link'}>
        {items.length ? t('expiring.renew') : t('expiring.openBilling')}
      </Link>
    </article>
  );
}
