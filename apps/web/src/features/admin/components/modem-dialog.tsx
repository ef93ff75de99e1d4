import { FINGERPRINT_PRESET_IDS, type FingerprintPresetId } from '@cellport/shared/fingerprint-presets';
import type { AdminCatalogResponse } from '@cellport/shared/schemas/admin/catalog';
import type { Host } from '@cellport/shared/schemas/admin/hosts';
import type { AdminModem, ModemRequest } from '@cellport/shared/schemas/admin/modems';
import { modemRequestSchema } from '@cellport/shared/schemas/admin/modems';
import * as z from 'zod/mini';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n';
import { createModem, updateModem } from '../api/inventory';
import { useAdminMutation } from '../api/use-admin-mutation';
import { SelectField } from './select-field';

interface Draft {
  imei: string; hostId: string; httpPort: string; socksPort: string; extIp: string; countryId: string; carrierId: string;
  regionId: string; isShared: boolean; capacity: string; rotationInterval: string; online: boolean;
  /** Issue 30: the OS fingerprint preset of its ports that choose none; '' for the tariff's. */
  fingerprintDefault: string;
}

const fromModem = (m: AdminModem | null, hosts: Host[], catalog: AdminCatalogResponse): Draft => ({
  imei: m?.imei ?? '', hostId: m?.hostId ?? hosts[0]?.id ?? '', httpPort: m ? String(m.httpPort) : '', socksPort: m ? String(m.socksPort) : '',
  extIp: m?.extIp ?? '', countryId: m?.countryId ?? catalog.countries[0]?.id ?? '', carrierId: m?.carrierId ?? '', regionId: m?.regionId ?? '',
  isShared: m?.isShared ?? false, capacity: m ? String(m.capacity) : '1', rotationInterval: m?.rotationInterval == null ? '' : String(m.rotationInterval),
  online: m?.online ?? true, fingerprintDefault: m?.fingerprintDefault ?? '',
});

function toRequest(d: Draft): ModemRequest {
  return {
    imei: d.imei.trim(), hostId: d.hostId, httpPort: Number(d.httpPort), socksPort: Number(d.socksPort), extIp: d.extIp.trim(),
    countryId: d.countryId, carrierId: d.carrierId, regionId: d.regionId || null, isShared: d.isShared,
    capacity: d.isShared ? Number(d.capacity) : 1, rotationInterval: d.isShared && d.rotationInterval !== '' ? Number(d.rotationInterval) : null,
    online: d.online,
  };
}

/** Add a modem or edit one: host, ports, IP, where it is, shared or dedicated. Field errors come from the shared schema. */
export function ModemDialog({ modem, hosts, catalog, onClose }: {
  modem: AdminModem | null; hosts: Host[]; catalog: AdminCatalogResponse; onClose: () => void;
}) {
  const { t, language } = useT(['admin', 'proxies']);
  // Made when the dialog mounts, which the page does for each opening (keyed by the modem): a draft filled by an effect
  // after the first render could lag behind the operator's first keys under load (its render has a lower priority
  // than their input), and a save then checked the empty draft (CI, 2026-12-07); a background refetch of the hosts or
  // the catalog must not reset what they typed either.
  const [draft, setDraft] = useState<Draft>(() => fromModem(modem, hosts, catalog));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const save = useAdminMutation(
    // A new modem takes the tariff's preset: its own default is set once it exists (the create request has none).
    ({ body, fingerprintDefault }: { body: ModemRequest; fingerprintDefault: FingerprintPresetId | null }) => (modem
      ? updateModem({ id: modem.id, ...body, fingerprintDefault })
      : createModem(body)),
    { successKey: modem ? 'inventory.modemSaved' : 'inventory.modemAdded', onSuccess: onClose },
  );

  const carriers = catalog.carriers.filter((c) => c.countryId === draft.countryId);
  const regions = catalog.regions.filter((r) => r.countryId === draft.countryId && (!r.carrierId || r.carrierId === draft.carrierId));
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const body = toRequest(draft);
    const parsed = z.safeParse(modemRequestSchema, body);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) next[String(issue.path[0])] ??= t(`inventory.invalid.${String(issue.path[0])}`, { defaultValue: t('invalidValue') });
      setErrors(next);
      return;
    }
    setErrors({});
    save.mutate({ body, fingerprintDefault: draft.fingerprintDefault === '' ? null : draft.fingerprintDefault as FingerprintPresetId });
  };
  return (
    <Dialog open onClose={onClose} title={modem ? t('inventory.editModem') : t('inventory.addModem')} size="lg">
      <form onSubmit={submit} noValidate className="admin-form-grid">
        <TextField label={t('fields.imei')} value={draft.imei} inputMode="numeric" onChange={(e) => set('imei', e.target.value)} error={errors.imei} />
        <SelectField label={t('fields.host')} value={draft.hostId} onChange={(v) => set('hostId', v)} error={errors.hostId}
          options={hosts.map((h) => ({ value: h.id, label: `${h.name} (${h.address})` }))} />
        <TextField label={t('fields.httpPort')} value={draft.httpPort} inputMode="numeric" onChange={(e) => set('httpPort', e.target.value)} error={errors.httpPort} />
        <TextField label={t('fields.socksPort')} value={draft.socksPort} inputMode="numeric" onChange={(e) => set('socksPort', e.target.value)} error={errors.socksPort} />
        <TextField label={t('fields.ip')} value={draft.extIp} onChange={(e) => set('extIp', e.target.value)} error={errors.extIp} />
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
        {modem ? (
          <SelectField label={t('fields.fingerprintModemDefault')} value={draft.fingerprintDefault} onChange={(v) => set('fingerprintDefault', v)}
            placeholder={t('inventory.fingerprintTariff')}
            options={FINGERPRINT_PRESET_IDS.map((id) => ({ value: id, label: t(`proxies:fingerprint.presets.${id}.name`) }))} />
        ) : null}
        <label className="admin-check"><input type="checkbox" checked={draft.online} onChange={(e) => set('online', e.target.checked)} /> {t('fields.online')}</label>
        <div className="dialog__footer admin-form-grid__full">
          <Button variant="secondary" onClick={onClose}>{t('actions.cancel')}</Button>
          <Button type="submit" busy={save.isPending}>{modem ? t('actions.save') : t('inventory.addModem')}</Button>
        </div>
      </form>
    </Dialog>
  );
}
