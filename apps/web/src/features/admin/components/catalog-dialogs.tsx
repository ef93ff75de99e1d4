import type {
  AdminCarrier, AdminCatalogResponse, AdminCountry, AdminRegion, RotationInterval,
} from '@cellport/shared/schemas/admin/catalog';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n';
import {
  createCarrier, createCountry, createRegion, createRotationInterval, updateCarrier, updateCountry, updateRegion, updateRotationInterval,
} from '../api/catalog';
import { useAdminMutation } from '../api/use-admin-mutation';
import { emptyNames, NamesFields, namesFilled, type Names } from './names-fields';
import { SelectField } from './select-field';

/**
 * The dialogs of this file are open while mounted: the catalog page mounts one per opening, keyed by what it edits, so
 * their fields start filled. Filled by an effect after opening, they could lag behind the operator's first keys under
 * load (that render has a lower priority than their input), and a save checked empty fields; a refetch of the catalog
 * reset what was typed.
 */
function FormDialog({ title, busy, submitLabel, onClose, onSubmit, children }: {
  title: string; busy: boolean; submitLabel: string; onClose: () => void; onSubmit: () => void; children: React.ReactNode;
}) {
  const { t } = useT('admin');
  return (
    <Dialog open onClose={onClose} title={title} size="md">
      <form noValidate onSubmit={(e) => { e.preventDefault(); onSubmit(); }}>
        {children}
        <div className="dialog__footer">
          <Button variant="secondary" onClick={onClose}>{t('actions.cancel')}</Button>
          <Button type="submit" busy={busy}>{submitLabel}</Button>
        </div>
      </form>
    </Dialog>
  );
}

/** Add or edit a country: ISO code and its name in the three languages. */
export function CountryDialog({ country, onClose }: { country: AdminCountry | null; onClose: () => void }) {
  const { t } = useT('admin');
  const [code, setCode] = useState(country?.code ?? '');
  const [names, setNames] = useState<Names>(() => (country ? { ...country.names } : emptyNames()));
  const [touched, setTouched] = useState(false);
  const save = useAdminMutation(
    (body: { code: string; names: Names }) => (country ? updateCountry({ id: country.id, ...body }) : createCountry(body)),
    { successKey: 'catalog.saved', onSuccess: onClose },
  );
  const codeOk = /^[A-Za-z]{2}$/.test(code.trim());
  return (
    <FormDialog title={country ? t('catalog.editCountry') : t('catalog.addCountry')} busy={save.isPending}
      submitLabel={country ? t('actions.save') : t('catalog.addCountry')} onClose={onClose}
      onSubmit={() => { setTouched(true); if (codeOk && namesFilled(names)) save.mutate({ code: code.trim().toUpperCase(), names }); }}>
      <TextField label={t('fields.isoCode')} value={code} maxLength={2} autoCapitalize="characters" onChange={(e) => setCode(e.target.value)}
        hint={t('catalog.isoHint')} error={touched && !codeOk ? t('catalog.isoError') : undefined} />
      <NamesFields label={t('fields.names')} value={names} onChange={setNames} touched={touched} />
    </FormDialog>
  );
}

/** Add or rename a carrier of a country. */
export function CarrierDialog({ carrier, catalog, onClose }: { carrier: AdminCarrier | null; catalog: AdminCatalogResponse; onClose: () => void }) {
  const { t, language } = useT('admin');
  const [countryId, setCountryId] = useState(carrier?.countryId ?? catalog.countries[0]?.id ?? '');
  const [name, setName] = useState(carrier?.name ?? '');
  const [asn, setAsn] = useState(carrier?.asn ? String(carrier.asn) : '');
  const [touched, setTouched] = useState(false);
  // The ASN the catalog shows buyers (issue 27, item 8): digits, "AS" in front allowed; empty clears it.
  const asnValid = /^\s*(AS)?\d{1,10}\s*$/i.test(asn) || asn.trim() === '';
  const asnValue = asn.trim() === '' ? null : asn.trim();
  const save = useAdminMutation(
    () => (carrier ? updateCarrier({ id: carrier.id, name: name.trim(), asn: asnValue }) : createCarrier({ countryId, name: name.trim(), asn: asnValue })),
    { successKey: 'catalog.saved', onSuccess: onClose },
  );
  return (
    <FormDialog title={carrier ? t('catalog.editCarrier') : t('catalog.addCarrier')} busy={save.isPending}
      submitLabel={carrier ? t('actions.save') : t('catalog.addCarrier')} onClose={onClose}
      onSubmit={() => { setTouched(true); if (name.trim() && countryId && asnValid) save.mutate(undefined); }}>
      {carrier ? null : (
        <SelectField label={t('fields.country')} value={countryId} onChange={setCountryId} error={touched && !countryId ? t('required') : undefined}
          options={catalog.countries.map((c) => ({ value: c.id, label: `${c.names[language] || c.names.en} (${c.code})` }))} />
      )}
      <TextField label={t('fields.name')} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} error={touched && !name.trim() ? t('required') : undefined} />
      <TextField label={t('fields.asn')} value={asn} maxLength={12} inputMode="text" onChange={(e) => setAsn(e.target.value)}
        hint={t('catalog.asnHint')} error={touched && !asnValid ? t('catalog.asnInvalid') : undefined} />
    </FormDialog>
  );
}

/** Add or edit a region: its country, optionally one carrier, and its name in English, Russian and Chinese (the last two optional). */
export function RegionDialog({ region, catalog, onClose }: { region: AdminRegion | null; catalog: AdminCatalogResponse; onClose: () => void }) {
  const { t, language } = useT('admin');
  const [countryId, setCountryId] = useState(region?.countryId ?? catalog.countries[0]?.id ?? '');
  const [carrierId, setCarrierId] = useState(region?.carrierId ?? '');
  const [names, setNames] = useState<Names>(() => (region ? { ...region.names } : emptyNames()));
  const [touched, setTouched] = useState(false);
  const trimmed = { en: names.en.trim(), ru: names.ru.trim(), cn: names.cn.trim() };
  const save = useAdminMutation(
    () => (region
      ? updateRegion({ id: region.id, names: trimmed, carrierId: carrierId || null })
      : createRegion({ countryId, carrierId: carrierId || null, names: trimmed })),
    { successKey: 'catalog.saved', onSuccess: onClose },
  );
  return (
    <FormDialog title={region ? t('catalog.editRegion') : t('catalog.addRegion')} busy={save.isPending}
      submitLabel={region ? t('actions.save') : t('catalog.addRegion')} onClose={onClose}
      onSubmit={() => { setTouched(true); if (trimmed.en && countryId) save.mutate(undefined); }}>
      {region ? null : (
        <SelectField label={t('fields.country')} value={countryId} onChange={(v) => { setCountryId(v); setCarrierId(''); }}
          options={catalog.countries.map((c) => ({ value: c.id, label: `${c.names[language] || c.names.en} (${c.code})` }))} />
      )}
      <SelectField label={t('fields.carrier')} value={carrierId} onChange={setCarrierId} placeholder={t('catalog.anyCarrier')}
        options={catalog.carriers.filter((c) => c.countryId === countryId).map((c) => ({ value: c.id, label: c.name }))} />
      <NamesFields label={t('fields.names')} value={names} onChange={setNames} touched={touched} englishOnly />
    </FormDialog>
  );
}

/** Add or edit a rotation-interval choice: minutes (0 = on demand), optional labels, shown or hidden. */
export function RotationDialog({ interval, onClose }: { interval: RotationInterval | null; onClose: () => void }) {
  const { t } = useT('admin');
  const [minutes, setMinutes] = useState(interval ? String(interval.minutes) : '');
  const [custom, setCustom] = useState(interval?.labels != null);
  const [labels, setLabels] = useState<Names>(() => (interval?.labels ? { ...interval.labels } : emptyNames()));
  const [active, setActive] = useState(interval?.active ?? true);
  const [touched, setTouched] = useState(false);
  const value = Number(minutes);
  const minutesOk = /^\d{1,4}$/.test(minutes.trim()) && value <= 1440;
  const save = useAdminMutation(
    () => {
      const body = { labels: custom ? labels : null, active };
      return interval ? updateRotationInterval({ minutes: interval.minutes, ...body }) : createRotationInterval({ minutes: value, ...body });
    },
    { successKey: 'catalog.saved', onSuccess: onClose },
  );
  return (
    <FormDialog title={interval ? t('catalog.editRotation') : t('catalog.addRotation')} busy={save.isPending}
      submitLabel={interval ? t('actions.save') : t('catalog.addRotation')} onClose={onClose}
      onSubmit={() => { setTouched(true); if (minutesOk && (!custom || namesFilled(labels))) save.mutate(undefined); }}>
      <TextField label={t('fields.minutes')} value={minutes} inputMode="numeric" disabled={interval !== null} onChange={(e) => setMinutes(e.target.value)}
        hint={t('catalog.minutesHint')} error={touched && !minutesOk ? t('catalog.minutesError') : undefined} />
      <label className="admin-check"><input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} /> {t('catalog.offered')}</label>
      <label className="admin-check"><input type="checkbox" checked={custom} onChange={(e) => setCustom(e.target.checked)} /> {t('catalog.customLabels')}</label>
      {custom ? <NamesFields label={t('fields.labels')} value={labels} onChange={setLabels} touched={touched} /> : null}
    </FormDialog>
  );
}
