import { icons } from '../../components/ui/icons';
import { Popover } from '../../components/ui/popover';
import { useT } from '../../lib/i18n';
import { useAppStore } from '../../store';
import { bellItems, unreadCount } from './bell-items';
import { NotificationsPanel } from './components/notifications-panel';
import './notifications.css';

/** Spec §2: the header's notifications bell (hidden below 768 px, where the user menu offers the same list). */
export function NotificationsBell() {
  const { t } = useT('notifications-ui');
  const unread = unreadCount(bellItems(useAppStore((s) => s.notifications)));
  return (
    <div className="shell-bell">
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
