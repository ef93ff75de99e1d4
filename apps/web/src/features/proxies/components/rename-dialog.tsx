import { CATALOG_LIMITS, modemNameSchema, type Port } from '@cellport/shared/schemas/catalog';
import * as z from 'zod/mini';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { useUpdatePort } from '../api/update-port';
import { errorText } from '../../../lib/translate-api-error';

/** Gives a port a name of the customer's choosing (1–60 characters, as the server checks). */
export function RenameDialog({ port, open, onClose }: { port: Port; open: boolean; onClose: () => void }) {
  const { t } = useT(['proxies', 'errors']);
  const [name, setName] = useState(port.modem_name);
  const [invalid, setInvalid] = useState(false);
  const update = useUpdatePort();
  const id = useId();
  const errorId = useId();

  function save(event: React.FormEvent) {
    event.preventDefault();
    const parsed = z.safeParse(modemNameSchema, name);
    if (!parsed.success) { setInvalid(true); return; }
    update.mutate({ id: port._id, patch: { modem_name: parsed.data } }, {
      onSuccess: () => { toast.success(t('rename.done')); onClose(); },
      onError: (error) => toast.error(errorText(t, error)),
    });
  }

  return (
    <Dialog open={open} onClose={onClose} size="sm" title={t('rename.title')}>
      <form onSubmit={save} noValidate>
        <div className="field">
          <label htmlFor={id}>{t('rename.label')}</label>
          <input
            id={id} value={name} maxLength={CATALOG_LIMITS.modemNameMax} autoFocus
            aria-invalid={invalid || undefined} aria-describedby={invalid ? errorId : undefined}
            onChange={(e) => { setName(e.target.value); setInvalid(false); }}
          />
          {invalid ? <p id={errorId} className="field__error">{t('validation.modemName')}</p> : null}
        </div>
        <div className="px-dialog-actions">
          <Button variant="secondary" onClick={onClose}>{t('cancel')}</Button>
          <Button type="submit" busy={update.isPending}>{t('save')}</Button>
        </div>
      </form>
    </Dialog>
  );
}
