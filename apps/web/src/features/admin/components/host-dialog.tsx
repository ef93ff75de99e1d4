import type { HostGateway } from '@cellport/shared/schemas/admin/gateways';
import type { Host } from '@cellport/shared/schemas/admin/hosts';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n';
import { useGateways } from '../api/gateways';
import { createHost, updateHost } from '../api/inventory';
import { useAdminMutation } from '../api/use-admin-mutation';
import { SelectField } from './select-field';

interface HostDraft { name: string; address: string; gatewayId: string | null }

/** The gateways to choose from, and the host's own while the list is still loading (so the choice shows it). */
const gatewayChoices = (host: Host | null, listed: HostGateway[]): HostGateway[] =>
  host?.gateway && !listed.some((g) => g.id === host.gateway!.id) ? [host.gateway, ...listed] : listed;

/**
 * Add a proxy host or edit one: its name (used by the CSV import), its address, and how customers reach it — directly
 * or through a gateway (the server refuses a gateway where another host already uses one of this host's ports).
 */
export function HostDialog({ host, onClose }: { host: Host | null; onClose: () => void }) {
  const { t } = useT('admin');
  const gateways = useGateways();
  // Open while mounted: the page mounts it for each opening, keyed by the host, so the fields start filled (filled by
  // an effect after opening, they could lag behind the operator's first keys under load and a save checked them empty).
  const [name, setName] = useState(host?.name ?? '');
  const [address, setAddress] = useState(host?.address ?? '');
  const [gatewayId, setGatewayId] = useState(host?.gateway?.id ?? '');
  const [touched, setTouched] = useState(false);
  const save = useAdminMutation(
    async (body: HostDraft) => {
      if (host) return updateHost({ id: host.id, ...body });
      // A new host has no modems, so its pin cannot clash: added, then pinned.
      const created = await createHost({ name: body.name, address: body.address });
      return body.gatewayId ? updateHost({ id: created.host.id, gatewayId: body.gatewayId }) : created;
    },
    { successKey: host ? 'inventory.hostSaved' : 'inventory.hostAdded', onSuccess: onClose },
  );
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!name.trim() || !address.trim()) return;
    save.mutate({ name: name.trim(), address: address.trim(), gatewayId: gatewayId || null });
  };
  return (
    <Dialog open onClose={onClose} title={host ? t('inventory.editHost') : t('inventory.addHost')} size="sm">
      <form onSubmit={submit} noValidate>
        <TextField label={t('fields.name')} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} error={touched && !name.trim() ? t('required') : undefined} />
        <TextField label={t('fields.address')} value={address} maxLength={255} onChange={(e) => setAddress(e.target.value)}
          hint={t('inventory.addressHint')} error={touched && !address.trim() ? t('required') : undefined} />
        <SelectField label={t('gateways.reachedThrough')} value={gatewayId} onChange={setGatewayId} placeholder={t('gateways.direct')}
          options={gatewayChoices(host, gateways.data?.items ?? []).map((g) => ({ value: g.id, label: t('gateways.gatewayOf', { name: g.name, host: g.publicHost }) }))} />
        <p className="admin-muted">{t('gateways.reachedHint')}</p>
        <div className="dialog__footer">
          <Button variant="secondary" onClick={onClose}>{t('actions.cancel')}</Button>
          <Button type="submit" busy={save.isPending}>{host ? t('actions.save') : t('inventory.addHost')}</Button>
        </div>
      </form>
    </Dialog>
  );
}
