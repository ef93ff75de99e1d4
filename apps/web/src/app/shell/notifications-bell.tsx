import { Popover } from '../../components/ui/popover';
import { useT } from '../../lib/i18n';
import { useAppStore } from '../../store';
import { icons } from '../../components/ui/icons';

/** Spec §2: the notifications bell, hidden on small screens. The list comes from the store's notifications slice. */
export function NotificationsBell() {
  const { t } = useT('shell');
  // Spec §7: payment-type notifications are not shown in this list.
  const items = useAppStore((s) => s.notifications).filter((n) => n.type !== 'payment');
  const unread = items.filter((n) => n.unread).length;
  const label = unread ? t('notifications.labelUnread', { n: unread }) : t('notifications.label');
  return (
    <div className="shell-bell">
      <Popover
        label={label}
        triggerClassName="icon-button"
        panelClassName="shell-bell__panel"
        trigger={<>{icons.bell}{unread ? <span className="shell-bell__dot" aria-hidden="true">{unread > 9 ? '9+' : unread}</span> : null}</>}
      >
        {() => (
          <div>
            <h2 className="popover__title">{t('notifications.title')}</h2>
            {items.length === 0 ? (
              <p className="shell-bell__empty">{t('notifications.empty')}</p>
            ) : (
              <ul className="shell-bell__list">
                {items.map((n) => (
                  <li key={n._id} data-unread={n.unread}>
                    <p>{n.text}</p>
                    <time dateTime={n.timestamp}>{new Date(n.timestamp).toLocaleString()}</time>
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </Popover>
    </div>
  );
}
