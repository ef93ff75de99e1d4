import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { useT } from '../../lib/i18n';

/**
 * Placeholder for the add-funds dialog of spec §2 (crypto, card, PayPal). The payment work replaces the body;
 * until then it says plainly that the methods are not available yet instead of offering buttons that do nothing.
 */
export function AddFundsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useT(['shell', 'common']);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="sm"
      title={t('shell:addFundsDialog.title')}
      description={t('shell:addFundsDialog.soon')}
      footer={<Button onClick={onClose}>{t('common:actions.ok')}</Button>}
    />
  );
}
