import type { Port } from '@cellport/shared/schemas/catalog';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { errorText } from '../../../lib/translate-api-error';
import { useReplacePort } from '../api/replace-port';

/**
 * "Replace modem": the port moves to another modem of the same country, carrier and region, keeping its login,
 * password, whitelist and term; free, once a day. A refusal (REPLACEMENT_TOO_SOON) says in how many hours.
 */
export function ReplaceDialog({ port, open, onClose }: { port: Port; open: boolean; onClose: () => void }) {
  const { t } = useT(['proxies', 'errors']);
  const replace = useReplacePort(port);

  function confirm() {
    replace.mutate(undefined, {
      onSuccess: (r) => {
        if (r.status === 'moved') toast.success(t(r.addressKept ? 'replace.movedAddressKept' : 'replace.moved'));
        else toast.info(t('replace.queued'));
        onClose();
      },
      onError: (error) => toast.error(errorText(t, error)),
    });
  }

  return (
    <Dialog
      open={open} onClose={onClose} size="sm" title={t('replace.title')}
      description={t('replace.description', { name: port.modem_name })}
      footer={(
        <div className="px-dialog-actions">
          <Button variant="secondary" onClick={onClose}>{t('cancel')}</Button>
          <Button onClick={confirm} busy={replace.isPending} data-testid="replace-confirm">{t('replace.confirm')}</Button>
        </div>
      )}
    />
  );
}
