import { Suspense, lazy, useState } from 'react';
import { Button } from '../../components/ui/button';
import { useT } from '../../lib/i18n';
import { PaymentHost, PendingCryptoIndicator } from '../../features/payments';
import { BalanceBadge } from './balance-badge';
import { icons } from '../../components/ui/icons';
import { NotificationsBell } from '../../features/notifications/notifications-bell';
import { MENU_BUTTON_ID, SIDEBAR_ID } from './sidebar';
import { UserMenu } from './user-menu';

// The dialog's code (and the validation it carries) loads on the first click, not with every page (issue 31, item 4).
const AddFundsDialog = lazy(() => import('../../features/add-funds/add-funds-dialog').then((m) => ({ default: m.AddFundsDialog })));

/** Spec §2 header: page title, USDT balance in dollars, Add Funds, notifications, user menu, pending-crypto slot. */
export function ShellHeader({ title, menuOpen, onMenu }: { title: string; menuOpen: boolean; onMenu: () => void }) {
  const { t } = useT(['shell', 'common']);
  const [addFundsOpen, setAddFundsOpen] = useState(false);
  return (
    <header className="shell-header">
      <button
        id={MENU_BUTTON_ID}
        type="button"
        className="shell-header__menu"
        aria-expanded={menuOpen}
        aria-controls={SIDEBAR_ID}
        onClick={onMenu}
      >
        {icons.menu}
        <span className="visually-hidden">{t('shell:openMenu')}</span>
      </button>
      <p className="shell-header__title">{title}</p>
      <div className="shell-header__actions">
        {/* The pending crypto payment indicator (spec §2). */}
        <div id="pending-crypto-indicator" data-slot="pending-crypto-indicator" className="shell-header__slot"><PendingCryptoIndicator /></div>
        <BalanceBadge />
        <Button className="shell-header__add-funds" icon={icons.plus} onClick={() => setAddFundsOpen(true)}>
          <span className="shell-header__add-funds-text">{t('shell:addFunds')}</span>
        </Button>
        <NotificationsBell />
        <UserMenu />
      </div>
      {addFundsOpen && (
        <Suspense fallback={null}><AddFundsDialog open onClose={() => setAddFundsOpen(false)} /></Suspense>
      )}
      <PaymentHost />
    </header>
  );
}
