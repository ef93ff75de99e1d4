import type { Notification } from '@cellport/shared/schemas/notifications';
import { Link } from 'wouter';
import { dateTime, relativeTime } from '../../../lib/dates';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { readNotification } from '../api/read-notification';
import { followNotificationLink } from '../bell-items';

/**
 * The notifications as a list of buttons: an unread one is marked read when clicked (spec §4). Read ones are
 * plain text; one with a link (a support reply) is a link to its page, and following it calls `onNavigate` (the
 * bell closes its popover). Shared by the header bell and the phone panel.
 */
export function NotificationList({ items, limit, onNavigate }: { items: readonly Notification[]; limit?: number; onNavigate?: (() => void) | undefined }) {
  const { t, language } = useT('notifications-ui');
  const shown = limit ? items.slice(0, limit) : items;
  if (!shown.length) {
    return (
      <div className="notification-list__empty">
        <p className="notification-list__empty-title">{t('empty')}</p>
        <p>{t('emptyHint')}</p>
      </div>
    );
  }
  const open = (item: Notification) => {
    readNotification(item).catch(() => toast.error(t('readFailed')));
  };
  return (
    <ul className="notification-list">
      {shown.map((item) => {
        const body = (
          <>
            <span className="notification-list__dot" aria-hidden="true" />
            <span className="notification-list__text">
              {item.unread ? <span className="visually-hidden">{t('unread')}: </span> : null}
              {item.text}
            </span>
            <time className="notification-list__time" dateTime={item.timestamp} title={dateTime(item.timestamp, language)}>
              {relativeTime(item.timestamp, language)}
            </time>
          </>
        );
        return (
          <li key={item._id} className="notification-list__item" data-unread={item.unread}>
            {item.link ? (
              // A notification about a page (a support reply: /support/<id>) opens it; opening marks it read and
              // closes the bell, which would cover the page.
              // From the root (`~/lng/...`): the same link works from the dashboard's routes and the console's.
              <Link href={`~/${language}${item.link}`} className={item.unread ? 'notification-list__button' : 'notification-list__static'} onClick={() => followNotificationLink(item, { read: open, close: onNavigate })}>{body}</Link>
            ) : item.unread ? (
              <button type="button" className="notification-list__button" onClick={() => open(item)} title={t('markRead')}>{body}</button>
            ) : <div className="notification-list__static">{body}</div>}
          </li>
        );
      })}
    </ul>
  );
}
