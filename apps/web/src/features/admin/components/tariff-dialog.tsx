import { FINGERPRINT_PRESET_IDS, type FingerprintPresetId } from '@cellport/shared/fingerprint-presets';
import { TARIFF_PERIODS } from '@cellport/shared/schemas/catalog';
import type { AdminCatalogResponse, AdminTariff, TariffRequest } from '@cellport/shared/schemas/admin/catalog';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n';
import { createTariff, updateTariff } from '../api/catalog';
import { limitsDraft, parseLimits, type LimitsDraft } from '../lib/tariff-limits';
import { centsText, offersDraft, parseCents, parseOffers, type OffersDraft } from '../lib/tariff-offers';
import { TariffOffersFields } from './tariff-offers-fields';
import { useAdminMutation } from '../api/use-admin-mutation';
import { emptyNames, NamesFields, namesFilled, type Names } from './names-fields';
import { SelectField } from './select-field';

interface Draft {
  names: Names; price: string; period: (typeof TARIFF_PERIODS)[number]; countryId: string; carrierId: string; regionId: string;
  isShared: boolean; rotationInterval: string; recurring: boolean; active: boolean; limits: LimitsDraft; offers: OffersDraft;
  /** Issue 30: the OS fingerprint preset of its ports that choose none; '' for native. */
  fingerprintDefault: string;
}

const fromTariff = (tf: AdminTariff | null, catalog: AdminCatalogResponse): Draft => ({
  names: tf ? { ...tf.names } : emptyNames(),
  // Whole cents (issue 27): a tariff saved before with sub-cent digits shows them rounded, and saving fixes it.
  price: tf ? centsText(tf.price) : '',
  period: tf?.period ?? 'month', countryId: tf?.countryId ?? catalog.countries[0]?.id ?? '', carrierId: tf?.carrierId ?? '',
  regionId: tf?.regionId ?? '', isShared: tf?.isShared ?? false, rotationInterval: String(tf?.rotationInterval ?? 0),
  recurring: tf?.recurring ?? false, active: tf?.active ?? true, limits: limitsDraft(tf?.limits ?? null),
  fingerprintDefault: tf?.fingerprintDefault ?? '',
  offers: offersDraft(tf?.trial ?? null, tf?.discounts ?? null),
});

/**
 * Add or edit a tariff: names in en/ru/cn, price in dollars and whole cents, period, where, shared or dedicated,
 * rotation, recurring, per-port limits, a paid trial and volume discounts. Open while mounted: the page mounts it for
 * each opening, keyed by the tariff.
 */
export function TariffDialog({ tariff, catalog, onClose }: { tariff: AdminTariff | null; catalog: AdminCatalogResponse; onClose: () => void }) {
  const { t, language } = useT(['admin', 'proxies']);
  // Made when the dialog mounts: a draft filled by an effect after opening could lag behind the operator's first keys
  // under load (its render has a lower priority than their input), so a save checked an empty draft; and a refetch of
  // the catalog (a new object) reset what they had typed.
  const [draft, setDraft] = useState<Draft>(() => fromTariff(tariff, catalog));
  const [touched, setTouched] = useState(false);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const save = useAdminMutation(
    (body: TariffRequest) => (tariff ? updateTariff({ id: tariff.id, ...body }) : createTariff(body)),
    { successKey: 'catalog.saved', onSuccess: onClose },
  );
  const price = parseCents(draft.price);
  const offers = parseOffers(draft.offers);
  const limits = parseLimits(draft.limits);
  const limitErrors = touched && !limits.ok ? limits.errors : {};
  const setLimit = <K extends keyof LimitsDraft>(key: K, value: LimitsDraft[K]) => setDraft((d) => ({ ...d, limits: { ...d.limits, [key]: value } }));
  const limitError = (key: keyof LimitsDraft) => { const e = limitErrors[key]; return e ? t(`catalog.limitErrors.${e}`) : undefined; };
  const submit = () => {
    setTouched(true);
    if (price === null || !namesFilled(draft.names) || !draft.countryId || !limits.ok || !offers.ok) return;
    save.mutate({
      names: draft.names, price: price.toString(), period: draft.period, countryId: draft.countryId, carrierId: draft.carrierId || null,
      regionId: draft.regionId || null, isShared: draft.isShared, rotationInterval: Number(draft.rotationInterval),
      recurring: draft.recurring, active: draft.active, limits: limits.value, trial: offers.trial, discounts: offers.discounts,
      fingerprintDefault: draft.fingerprintDefault === '' ? null : (draft.fingerprintDefault as FingerprintPresetId),
    });
  };
  const carriers = catalog.carriers.filter((c) => c.countryId === draft.countryId);
  const regions = catalog.regions.filter((r) => r.countryId === draft.countryId && (!r.carrierId || !draft.carrierId || r.carrierId === draft.carrierId));
  return (
    <Dialog open onClose={onClose} title={tariff ? t('catalog.editTariff') : t('catalog.addTariff')} size="lg">
      <form noValidate onSubmit={(e) => { e.preventDefault(); submit(); }}>
        <NamesFields label={t('fields.names')} value={draft.names} onChange={(names) => set('names', names)} touched={touched} />
        <div className="admin-form-grid">
          <TextField label={t('fields.priceUsd')} value={draft.price} inputMode="decimal" onChange={(e) => set('price', e.target.value)}
            error={touched && price === null ? t('pricing.priceError') : undefined} />
          <SelectField label={t('fields.period')} value={draft.period} onChange={(v) => set('period', v as Draft['period'])}
            options={TARIFF_PERIODS.map((p) => ({ value: p, label: t(`periods.${p}`) }))} />
          <SelectField label={t('fields.country')} value={draft.countryId} onChange={(v) => setDraft((d) => ({ ...d, countryId: v, carrierId: '', regionId: '' }))}
            options={catalog.countries.map((c) => ({ value: c.id, label: `${c.names[language] || c.names.en} (${c.code})` }))} />
          <SelectField label={t('fields.carrier')} value={draft.carrierId} onChange={(v) => setDraft((d) => ({ ...d, carrierId: v, regionId: '' }))}
            placeholder={t('catalog.anyCarrier')} options={carriers.map((c) => ({ value: c.id, label: c.name }))} />
          <SelectField label={t('fields.region')} value={draft.regionId} onChange={(v) => set('regionId', v)}
            placeholder={t('catalog.anyRegion')} options={regions.map((r) => ({ value: r.id, label: r.names[language] || r.name }))} />
          <SelectField label={t('fields.kindShared')} value={draft.isShared ? 'shared' : 'dedicated'} onChange={(v) => set('isShared', v === 'shared')}
            options={[{ value: 'dedicated', label: t('dedicated') }, { value: 'shared', label: t('shared') }]} />
          <SelectField label={t('fields.rotation')} value={draft.rotationInterval} onChange={(v) => set('rotationInterval', v)}
            options={catalog.rotationIntervals.map((r) => ({ value: String(r.minutes), label: r.minutes === 0 ? t('onDemand') : t('minutes', { count: r.minutes }) }))} />
          <SelectField label={t('fields.fingerprintDefault')} value={draft.fingerprintDefault} onChange={(v) => set('fingerprintDefault', v)}
            placeholder={t('catalog.fingerprintNone')}
            options={FINGERPRINT_PRESET_IDS.filter((id) => id !== 'native').map((id) => ({ value: id, label: t(`proxies:fingerprint.presets.${id}.name`) }))} />
        </div>
        <fieldset className="admin-fieldset">
          <legend>{t('catalog.limits')}</legend>
          <p className="field__hint">{t('catalog.limitsHint')}</p>
          <div className="admin-form-grid">
            <TextField label={t('fields.bandwidthMbps')} value={draft.limits.bandwidthMbps} inputMode="numeric" hint={t('catalog.emptyNoLimit')}
              onChange={(e) => setLimit('bandwidthMbps', e.target.value)} error={limitError('bandwidthMbps')} />
            <TextField label={t('fields.maxConnections')} value={draft.limits.maxConnections} inputMode="numeric"
              onChange={(e) => setLimit('maxConnections', e.target.value)} error={limitError('maxConnections')} />
            <TextField label={t('fields.monthlyQuotaGb')} value={draft.limits.monthlyQuotaGb} inputMode="numeric" hint={t('catalog.quotaHint')}
              onChange={(e) => setLimit('monthlyQuotaGb', e.target.value)} error={limitError('monthlyQuotaGb')} />
            <SelectField label={t('fields.overQuota')} value={draft.limits.overQuota} onChange={(v) => setLimit('overQuota', v as LimitsDraft['overQuota'])}
              options={[{ value: 'block', label: t('catalog.overQuotaBlock') }, { value: 'throttle', label: t('catalog.overQuotaThrottle') }]} />
            {draft.limits.overQuota === 'throttle' ? (
              <TextField label={t('fields.overQuotaMbps')} value={draft.limits.overQuotaMbps} inputMode="numeric"
                onChange={(e) => setLimit('overQuotaMbps', e.target.value)} error={limitError('overQuotaMbps')} />
            ) : null}
          </div>
        </fieldset>
        <TariffOffersFields draft={draft.offers} onChange={(o) => set('offers', o)} errors={touched && !offers.ok ? offers.errors : {}} />
        <label className="admin-check"><input type="checkbox" checked={draft.recurring} onChange={(e) => set('recurring', e.target.checked)} /> {t('catalog.recurring')}</label>
        <label className="admin-check"><input type="checkbox" checked={draft.active} onChange={(e) => set('active', e.target.checked)} /> {t('catalog.tariffActive')}</label>
        <div className="dialog__footer">
          <Button variant="secondary" onClick={onClose}>{t('actions.cancel')}</Button>
          <Button type="submit" busy={save.isPending}>{tariff ? t('actions.save') : t('catalog.addTariff')}</Button>
        </div>
      </form>
    </Dialog>
  );
}
