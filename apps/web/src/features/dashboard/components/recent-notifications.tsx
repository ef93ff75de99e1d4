import type { Notification } from '@cellport/shared/schemas/notifications';
import { dateTime, relativeTime } from '../../../lib/dates';
import { useT } from '../../../lib/i18n';
import { useAppStore } from '../../../store';

const SHOWN = 5;

/**
 * The latest notifications, payments included. The store's list (polled every 3 s and fed by realtime) is the
 * live one; until its first poll answers, the dashboard's own copy is shown.
 */
export function RecentNotifications({ initial }: { initial: Notification[] }) {
  const { t, language } = useT('dashboard');
  const live = useAppStore((s) => s.notifications);
  const items = (live.length ? live : initial).slice(0, SHOWN);
  return (
    <article className="card" aria-labelledby="dash-notes-title">
      <h2 id="dash-notes-title" className="dash-card__title">{t('notifications.title')}</h2>
      {items.length === 0 ? <p className="dash-card__empty">{t('notifications.empty')}</p> : (
        <ul className="dash-list" aria-live="polite" data-testid="dashboard-notifications">
          {items.map((n) => (
            <li key={n._id} className="dash-list__row dash-list__row--stack" data-unread={n.unread}>
              <span className="dash-list__main">{n.text}</span>
              <time className="dash-list__side" dateTime={n.timestamp} title={dateTime(n.timestamp, language)}>
                {relativeTime(n.timestamp, language)}
              </time>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}
