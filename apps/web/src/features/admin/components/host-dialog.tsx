import type { Host } from '@cellport/shared/schemas/admin/hosts';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n';
import { createHost, updateHost } from '../api/inventory';
import { useAdminMutation } from '../api/use-admin-mutation';

/** Add a proxy host or rename one: its name (used by the CSV import) and its address. */
export function HostDialog({ open, host, onClose }: { open: boolean; host: Host | null; onClose: () => void }) {
  const { t } = useT('admin');
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const [touched, setTouched] = useState(false);
  useEffect(() => { if (open) { setName(host?.name ?? ''); setAddress(host?.address ?? ''); setTouched(false); } }, [open, host]);
  const save = useAdminMutation(
    (body: { name: string; address: string }) => (host ? updateHost({ id: host.id, ...body }) : createHost(body)),
    { successKey: host ? 'inventory.hostSaved' : 'inventory.hostAdded', onSuccess: onClose },
  );
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!name.trim() || !address.trim()) return;
    save.mutate({ name: name.trim(), address: address.trim() });
  };
  return (
    <Dialog open={open} onClose={onClose} title={host ? t('inventory.editHost') : t('inventory.addHost')} size="sm">
      <form onSubmit={submit} noValidate>
        <TextField label={t('fields.name')} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} error={touched && !name.trim() ? t('required') : undefined} />
        <TextField label={t('fields.address')} value={address} maxLength={255} onChange={(e) => setAddress(e.target.value)}
          hint={t('inventory.addressHint')} error={touched && !address.trim() ? t('required') : undefined} />
        <div className="dialog__footer">
          <Button variant="secondary" onClick={onClose}>{t('actions.cancel')}</Button>
          <Button type="submit" busy={save.isPending}>{host ? t('actions.save') : t('inventory.addHost')}</Button>
        </div>
      </form>
    </Dialog>
  );
}
