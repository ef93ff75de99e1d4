import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { useAppStore } from '../../../store';
import { readAllNotifications } from '../api/read-notification';
import { bellItems, unreadCount } from '../bell-items';
import { NotificationList } from './notification-list';
import '../notifications.css';

/**
 * The bell's content: 'Mark all as read' and the list (payment notifications left out, spec §7). `onNavigate`
 * closes the container when a notification's link opens its page.
 */
export function NotificationsPanel({ headingLevel = 2, showTitle = true, onNavigate }: { headingLevel?: 2 | 3; showTitle?: boolean; onNavigate?: (() => void) | undefined }) {
  const { t } = useT('notifications-ui');
  const items = bellItems(useAppStore((s) => s.notifications));
  const unread = unreadCount(items);
  const [busy, setBusy] = useState(false);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const markAll = async () => {
    setBusy(true);
    try { await readAllNotifications(); } catch { toast.error(t('readFailed')); } finally { setBusy(false); }
  };
  return (
    <div className="notifications-panel">
      <div className="notifications-panel__head">
        {showTitle ? <Heading className="notifications-panel__title">{t('title')}</Heading> : <span />}
        {unread ? <Button variant="link" size="sm" busy={busy} onClick={() => void markAll()}>{t('markAllRead')}</Button> : null}
      </div>
      <NotificationList items={items} onNavigate={onNavigate} />
    </div>
  );
}
