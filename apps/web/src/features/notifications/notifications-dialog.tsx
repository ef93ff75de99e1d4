import { Dialog } from '../../components/ui/dialog';
import { useT } from '../../lib/i18n';
import { NotificationsPanel } from './components/notifications-panel';

/** Phones have no bell (spec §2): the user menu opens the same list in this dialog. */
export function NotificationsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useT('notifications-ui');
  return (
    <Dialog open={open} onClose={onClose} title={t('title')} size="md">
      <NotificationsPanel showTitle={false} onNavigate={onClose} />
    </Dialog>
  );
}

/** The count shown next to the user menu's Notifications entry. */
export { bellItems, unreadCount } from './bell-items';
