import { useState } from 'react';
import { Link } from 'wouter';
import { bellItems, NotificationsDialog, unreadCount } from '../../features/notifications/notifications-dialog';
import { Popover } from '../../components/ui/popover';
import { useT } from '../../lib/i18n';
import { useLanguage } from '../../lib/language';
import { useAppStore } from '../../store';
import { useUser } from '../../store/user-slice';
import { icons } from '../../components/ui/icons';

const initials = (name: string) =>
  name.trim().split(/\s+/).slice(0, 2).map((part) => [...part][0]?.toUpperCase() ?? '').join('') || '?';

/** The user menu: name, e-mail, a link to Account (and to the console for operators), and sign-out (a native form POST /signout, spec §7). */
export function UserMenu() {
  const { t } = useT(['shell', 'common', 'notifications-ui']);
  const language = useLanguage();
  const me = useUser().me;
  const name = me?.name ?? '';
  // Phones have no bell (spec §2): the menu carries a Notifications entry that opens the same list.
  const unread = unreadCount(bellItems(useAppStore((s) => s.notifications)));
  const [notificationsOpen, setNotificationsOpen] = useState(false);
  return (
    <>
    <Popover
      triggerClassName="user-menu__trigger"
      panelClassName="user-menu__panel"
      trigger={<>
        <span className="user-menu__avatar" aria-hidden="true">{initials(name)}</span>
        {unread ? <span className="notifications-badge user-menu__phone-only" aria-hidden="true">{unread > 99 ? '99+' : unread}</span> : null}
        <span className="user-menu__name">{name}</span>
        <span className="visually-hidden">{t('shell:userMenu')}</span>
        <span className="user-menu__chevron" aria-hidden="true">{icons.chevronDown}</span>
      </>}
    >
      {(close) => (
        <div>
          <div className="user-menu__who">
            <p className="user-menu__who-name">{name}</p>
            <p className="user-menu__who-email">{me?.email}</p>
          </div>
          <ul className="user-menu__list">
            <li className="user-menu__phone-only">
              <button type="button" className="user-menu__item" onClick={() => { close(); setNotificationsOpen(true); }}>
                {icons.bell}
                <span>{unread ? <span className="visually-hidden">{t('notifications-ui:menuEntryUnread', { count: unread })}</span> : null}
                  <span aria-hidden={unread ? true : undefined}>{t('notifications-ui:menuEntry')}</span></span>
                {unread ? <span className="user-menu__count" aria-hidden="true">{unread}</span> : null}
              </button>
            </li>
            <li>
              <Link href="/account" className="user-menu__item" onClick={close}>{icons.account}<span>{t('common:nav.account')}</span></Link>
            </li>
            {me?.role === 'admin' ? (
              <li>
                <Link href="/admin" className="user-menu__item" onClick={close}>{icons.shield}<span>{t('shell:console')}</span></Link>
              </li>
            ) : null}
            <li>
              <form method="post" action="/signout">
                <input type="hidden" name="language" value={language} />
                <button type="submit" className="user-menu__item user-menu__item--danger">{icons.signOut}<span>{t('shell:signOut')}</span></button>
              </form>
            </li>
          </ul>
        </div>
      )}
    </Popover>
    <NotificationsDialog open={notificationsOpen} onClose={() => setNotificationsOpen(false)} />
    </>
  );
}
