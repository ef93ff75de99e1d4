import { icons } from '../../components/ui/icons';
import { Popover } from '../../components/ui/popover';
import { useT } from '../../lib/i18n';
import { useAppStore } from '../../store';
import { bellItems, unreadCount } from './bell-items';
import { NotificationsPanel } from './components/notifications-panel';
import './notifications.css';

/**
 * Spec §2: the header's notifications bell (in the dashboard hidden below 768 px, where the user menu offers the same
 * list; `className` places it elsewhere, as in the console's header, which shows it on phones too).
 */
export function NotificationsBell({ className = 'shell-bell' }: { className?: string }) {
  const { t } = useT('notifications-ui');
  const unread = unreadCount(bellItems(useAppStore((s) => s.notifications)));
  return (
    <div className={className}>
      <Popover
        label={unread ? t('labelUnread', { count: unread }) : t('label')}
        triggerClassName="icon-button"
        panelClassName="notifications-popover"
        trigger={<>{icons.bell}{unread ? <span className="notifications-badge" aria-hidden="true" data-testid="bell-count">{unread > 99 ? '99+' : unread}</span> : null}</>}
      >
        {(close) => <NotificationsPanel onNavigate={close} />}
      </Popover>
    </div>
  );
}
