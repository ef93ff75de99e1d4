import type { AdminCatalogResponse } from '@cellport/shared/schemas/admin/catalog';
import type { AdminCoupon, CouponRequest } from '@cellport/shared/schemas/admin/coupons';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n';
import { formatCoin, parseMoneyInput } from '../../../lib/money';
import { createCoupon, updateCoupon } from '../api/coupons';
import { useAdminMutation } from '../api/use-admin-mutation';
import { fromLocalInput, toLocalInput } from '../lib/format';
import { SelectField } from './select-field';

interface Draft {
  name: string; type: 'percent' | 'fixed'; percent: string; amount: string; validFrom: string; validUntil: string;
  maxUses: string; maxUsesPerUser: string; tariffId: string; countryId: string;
}
const fromCoupon = (c: AdminCoupon | null): Draft => ({
  name: c?.name ?? '', type: c?.type ?? 'percent', percent: c?.percent == null ? '' : String(c.percent),
  amount: c?.amount ? (formatCoin(c.amount, 'usdt', 6) ?? '').replace(/,/g, '').replace(/\.?0+$/, '') : '',
  validFrom: toLocalInput(c?.validFrom ?? null), validUntil: toLocalInput(c?.validUntil ?? null),
  maxUses: c?.maxUses == null ? '' : String(c.maxUses), maxUsesPerUser: c?.maxUsesPerUser == null ? '' : String(c.maxUsesPerUser),
  tariffId: c?.tariffId ?? '', countryId: c?.countryId ?? '',
});
const optionalLimit = (text: string): number | null | 'bad' => {
  if (!text.trim()) return null;
  return /^\d{1,8}$/.test(text.trim()) && Number(text) >= 1 ? Number(text) : 'bad';
};

/**
 * Create or edit a coupon: percent or fixed dollars off, dates, total and per-customer limits, a tariff or country.
 * Open while mounted: the page mounts it for each opening, keyed by the coupon, so the draft starts filled (one
 * filled by an effect after opening could lag behind the operator's first keys under load, and a save checked it empty).
 */
export function CouponDialog({ coupon, catalog, onClose }: { coupon: AdminCoupon | null; catalog: AdminCatalogResponse | undefined; onClose: () => void }) {
  const { t, language } = useT('admin');
  const [d, setDraft] = useState<Draft>(() => fromCoupon(coupon));
  const [touched, setTouched] = useState(false);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((prev) => ({ ...prev, [key]: value }));
  const save = useAdminMutation(
    (body: CouponRequest) => (coupon ? updateCoupon({ id: coupon.id, ...body }) : createCoupon(body)),
    { successKey: coupon ? 'coupons.saved' : 'coupons.created', onSuccess: onClose },
  );
  const nameOk = /^[A-Za-z0-9_-]{1,64}$/.test(d.name.trim());
  const percent = /^\d{1,3}$/.test(d.percent.trim()) && Number(d.percent) >= 1 && Number(d.percent) <= 100 ? Number(d.percent) : null;
  const amount = parseMoneyInput(d.amount, 'usdt');
  const maxUses = optionalLimit(d.maxUses);
  const maxPerUser = optionalLimit(d.maxUsesPerUser);
  const datesOk = !d.validFrom || !d.validUntil || new Date(d.validUntil) > new Date(d.validFrom);
  const valueOk = d.type === 'percent' ? percent !== null : amount !== null;
  const submit = () => {
    setTouched(true);
    if (!nameOk || !valueOk || maxUses === 'bad' || maxPerUser === 'bad' || !datesOk) return;
    save.mutate({
      name: d.name.trim(), type: d.type, percent: d.type === 'percent' ? percent : null, amount: d.type === 'fixed' ? amount!.toString() : null,
      validFrom: fromLocalInput(d.validFrom), validUntil: fromLocalInput(d.validUntil), maxUses, maxUsesPerUser: maxPerUser,
      tariffId: d.tariffId || null, countryId: d.countryId || null,
    });
  };
  return (
    <Dialog open onClose={onClose} title={coupon ? t('coupons.edit') : t('coupons.create')} size="lg">
      <form noValidate onSubmit={(e) => { e.preventDefault(); submit(); }} className="admin-form-grid">
        <TextField label={t('fields.code')} value={d.name} maxLength={64} onChange={(e) => set('name', e.target.value)} hint={t('coupons.codeHint')}
          error={touched && !nameOk ? t('coupons.codeError') : undefined} />
        <SelectField label={t('fields.discountType')} value={d.type} onChange={(v) => set('type', v as Draft['type'])}
          options={[{ value: 'percent', label: t('coupons.percent') }, { value: 'fixed', label: t('coupons.fixed') }]} />
        {d.type === 'percent'
          ? <TextField label={t('fields.percent')} value={d.percent} inputMode="numeric" onChange={(e) => set('percent', e.target.value)} error={touched && percent === null ? t('coupons.percentError') : undefined} />
          : <TextField label={t('fields.amountUsd')} value={d.amount} inputMode="decimal" onChange={(e) => set('amount', e.target.value)} error={touched && amount === null ? t('customers.amountErrorUsd') : undefined} />}
        <TextField label={t('fields.maxUses')} value={d.maxUses} inputMode="numeric" hint={t('coupons.unlimitedHint')} onChange={(e) => set('maxUses', e.target.value)} error={touched && maxUses === 'bad' ? t('coupons.limitError') : undefined} />
        <TextField label={t('fields.maxUsesPerUser')} value={d.maxUsesPerUser} inputMode="numeric" hint={t('coupons.unlimitedHint')} onChange={(e) => set('maxUsesPerUser', e.target.value)} error={touched && maxPerUser === 'bad' ? t('coupons.limitError') : undefined} />
        <TextField label={t('fields.validFrom')} type="datetime-local" value={d.validFrom} onChange={(e) => set('validFrom', e.target.value)} />
        <TextField label={t('fields.validUntil')} type="datetime-local" value={d.validUntil} onChange={(e) => set('validUntil', e.target.value)} error={touched && !datesOk ? t('coupons.datesError') : undefined} />
        <SelectField label={t('fields.tariff')} value={d.tariffId} onChange={(v) => set('tariffId', v)} placeholder={t('coupons.anyTariff')}
          options={(catalog?.tariffs ?? []).map((tf) => ({ value: tf.id, label: tf.names[language] || tf.names.en }))} />
        <SelectField label={t('fields.country')} value={d.countryId} onChange={(v) => set('countryId', v)} placeholder={t('coupons.anyCountry')}
          options={(catalog?.countries ?? []).map((c) => ({ value: c.id, label: `${c.names[language] || c.names.en} (${c.code})` }))} />
        <div className="dialog__footer admin-form-grid__full">
          <Button variant="secondary" onClick={onClose}>{t('actions.cancel')}</Button>
          <Button type="submit" busy={save.isPending}>{coupon ? t('actions.save') : t('coupons.create')}</Button>
        </div>
      </form>
    </Dialog>
  );
}
