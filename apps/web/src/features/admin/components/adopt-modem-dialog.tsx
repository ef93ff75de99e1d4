import type { AdminCatalogResponse } from '@cellport/shared/schemas/admin/catalog';
import { adoptModemRequestSchema, type AdoptModemRequest, type NewHostModem } from '@cellport/shared/schemas/admin/host-inventory';
import * as z from 'zod/mini';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n';
import { useAdminCatalog } from '../api/catalog';
import { adoptModem } from '../api/inventory';
import { useAdminMutation } from '../api/use-admin-mutation';
import { deviceText } from '../lib/modem-report';
import { reportedCarrier } from '../lib/reported-carrier';
import { QueryView } from './query-view';
import { SelectField } from './select-field';

interface Draft { countryId: string; carrierId: string; regionId: string; isShared: boolean; capacity: string; rotationInterval: string }
const EMPTY: Draft = { countryId: '', carrierId: '', regionId: '', isShared: false, capacity: '1', rotationInterval: '' };

/**
 * Adds a modem its host reports to the inventory: the operator says what it sells (country, carrier, region, shared
 * or dedicated, capacity); the IMEI, driver and IP come from the host's report and the server picks its ports.
 */
export function AdoptModemDialog({ hostId, hostName, modem, onClose }: {
  hostId: string; hostName: string; modem: NewHostModem | null; onClose: () => void;
}) {
  const { t } = useT('admin');
  const catalog = useAdminCatalog();
  const title = modem ? t('hosts.adoptTitle', { imei: modem.imei, name: hostName }) : '';
  return (
    <Dialog open={modem !== null} onClose={onClose} title={title} size="lg">
      {modem ? (
        <QueryView query={catalog}>
          {(data) => <AdoptForm key={modem.imei} hostId={hostId} modem={modem} catalog={data} onClose={onClose} />}
        </QueryView>
      ) : null}
    </Dialog>
  );
}

function AdoptForm({ hostId, modem, catalog, onClose }: {
  hostId: string; modem: NewHostModem; catalog: AdminCatalogResponse; onClose: () => void;
}) {
  const { t, language } = useT('admin');
  // The carrier the modem reports, when the catalog has it, else the first country and no carrier.
  const initial = (): Draft => ({ ...EMPTY, countryId: catalog.countries[0]?.id ?? '', ...reportedCarrier(catalog, modem.operator) });
  // Made when the form mounts, once per modem (keyed by its IMEI): a refetch of the catalog (any console write) must
  // not reset what the operator chose.
  const [draft, setDraft] = useState<Draft>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const save = useAdminMutation((body: AdoptModemRequest) => adoptModem({ hostId, ...body }), { successKey: 'hosts.adopted', onSuccess: onClose });
  const carriers = catalog.carriers.filter((c) => c.countryId === draft.countryId);
  const regions = catalog.regions.filter((r) => r.countryId === draft.countryId && (!r.carrierId || r.carrierId === draft.carrierId));

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const body: AdoptModemRequest = {
      imei: modem.imei, countryId: draft.countryId, carrierId: draft.carrierId, regionId: draft.regionId || null, isShared: draft.isShared,
      capacity: draft.isShared ? Number(draft.capacity) : 1,
      rotationInterval: draft.isShared && draft.rotationInterval !== '' ? Number(draft.rotationInterval) : null,
    };
    const parsed = z.safeParse(adoptModemRequestSchema, body);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) next[String(issue.path[0])] ??= t(`inventory.invalid.${String(issue.path[0])}`, { defaultValue: t('invalidValue') });
      setErrors(next);
      return;
    }
    setErrors({});
    save.mutate(body);
  };
  return (
    <form onSubmit={submit} noValidate className="admin-form-grid">
      <dl className="admin-dl admin-form-grid__full">
        <dt>{t('fields.imei')}</dt><dd className="mono">{modem.imei}</dd>
        <dt>{t('hosts.model')}</dt><dd>{deviceText(modem) ?? '—'}</dd>
        <dt>{t('hosts.operator')}</dt><dd>{modem.operator ?? '—'}</dd>
        <dt>{t('fields.ip')}</dt><dd className="mono">{modem.extIp ?? t('hosts.notMeasured')}</dd>
      </dl>
      <p className="admin-muted admin-form-grid__full">{t('hosts.adoptText')}</p>
      <SelectField label={t('fields.country')} value={draft.countryId} error={errors.countryId}
        onChange={(v) => setDraft((d) => ({ ...d, countryId: v, carrierId: '', regionId: '' }))}
        options={catalog.countries.map((c) => ({ value: c.id, label: `${c.names[language] || c.names.en} (${c.code})` }))} />
      <SelectField label={t('fields.carrier')} value={draft.carrierId} onChange={(v) => set('carrierId', v)} error={errors.carrierId}
        placeholder={t('choose')} options={carriers.map((c) => ({ value: c.id, label: c.name }))} />
      <SelectField label={t('fields.region')} value={draft.regionId} onChange={(v) => set('regionId', v)}
        placeholder={t('none')} options={regions.map((r) => ({ value: r.id, label: r.names[language] || r.name }))} />
      <SelectField label={t('fields.kindShared')} value={draft.isShared ? 'shared' : 'dedicated'} onChange={(v) => set('isShared', v === 'shared')}
        options={[{ value: 'dedicated', label: t('dedicated') }, { value: 'shared', label: t('shared') }]} />
      {draft.isShared ? (
        <>
          <TextField label={t('fields.capacity')} value={draft.capacity} inputMode="numeric" onChange={(e) => set('capacity', e.target.value)} error={errors.capacity} />
          <SelectField label={t('fields.rotation')} value={draft.rotationInterval} onChange={(v) => set('rotationInterval', v)}
            placeholder={t('none')} options={catalog.rotationIntervals.map((r) => ({ value: String(r.minutes), label: t('minutes', { count: r.minutes }) }))} />
        </>
      ) : null}
      <div className="dialog__footer admin-form-grid__full">
        <Button variant="secondary" onClick={onClose}>{t('actions.cancel')}</Button>
        <Button type="submit" busy={save.isPending}>{t('hosts.addToInventory')}</Button>
      </div>
    </form>
  );
}
