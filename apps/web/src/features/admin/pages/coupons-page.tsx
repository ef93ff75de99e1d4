import type { AdminCoupon } from '@cellport/shared/schemas/admin/coupons';
import { useState } from 'react';
import { Link } from 'wouter';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { dateTime } from '../../../lib/dates';
import { useT } from '../../../lib/i18n';
import { useAdminCatalog } from '../api/catalog';
import { deleteCoupon, useCouponRedemptions, useCoupons } from '../api/coupons';
import { useAdminMutation } from '../api/use-admin-mutation';
import { ConfirmDialog } from '../components/confirm-dialog';
import { CouponDialog } from '../components/coupon-dialog';
import { PageTitle } from '../components/page-title';
import { EmptyRow, QueryView } from '../components/query-view';
import { catalogNames } from '../lib/catalog-names';
import { usd } from '../lib/format';

/** Coupons with their limits and use; create, edit, delete (only when never used), and each one's redemptions. */
export function CouponsPage() {
  const { t, language } = useT('admin');
  const coupons = useCoupons();
  const catalog = useAdminCatalog();
  const names = catalogNames(catalog.data, language);
  const [editing, setEditing] = useState<AdminCoupon | null | 'new'>(null);
  const [deleting, setDeleting] = useState<AdminCoupon | null>(null);
  const [viewing, setViewing] = useState<AdminCoupon | null>(null);
  const remove = useAdminMutation((c: AdminCoupon) => deleteCoupon(c.id), { successKey: 'coupons.deleted', onSuccess: () => setDeleting(null) });
  const value = (c: AdminCoupon) => (c.type === 'percent' ? `${c.percent}%` : usd(c.amount));
  const validity = (c: AdminCoupon) =>
    c.validFrom || c.validUntil
      ? `${c.validFrom ? dateTime(c.validFrom, language) : '…'} – ${c.validUntil ? dateTime(c.validUntil, language) : '…'}`
      : t('coupons.always');
  return (
    <>
      <PageTitle title={t('nav.coupons')} description={t('coupons.description')} actions={<Button onClick={() => setEditing('new')}>{t('coupons.create')}</Button>} />
      <QueryView query={coupons}>
        {(data) => (
          <div className="admin-table-wrap" tabIndex={0}>
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t('fields.code')}</th><th scope="col">{t('fields.discount')}</th><th scope="col">{t('fields.validity')}</th>
                  <th scope="col">{t('fields.uses')}</th><th scope="col">{t('fields.appliesTo')}</th><th scope="col"><span className="visually-hidden">{t('fields.actions')}</span></th>
                </tr>
              </thead>
              <tbody>
                {data.items.length === 0 ? <EmptyRow colSpan={6}>{t('coupons.empty')}</EmptyRow> : null}
                {data.items.map((c) => (
                  <tr key={c.id}>
                    <td className="mono">{c.name}</td>
                    <td className="num">{value(c)}</td>
                    <td>{validity(c)}</td>
                    <td className="num">{t('coupons.usesOf', { used: c.usedCount, max: c.maxUses ?? '∞' })}{c.maxUsesPerUser ? <span className="admin-muted"> · {t('coupons.perUser', { count: c.maxUsesPerUser })}</span> : null}</td>
                    <td>{c.tariffId ? names.tariff(c.tariffId) : c.countryId ? names.country(c.countryId) : t('coupons.everything')}</td>
                    <td className="admin-actions">
                      <Button size="sm" variant="secondary" onClick={() => setViewing(c)} aria-label={t('coupons.redemptionsNamed', { name: c.name })}>{t('coupons.redemptions')}</Button>
                      <Button size="sm" variant="secondary" onClick={() => setEditing(c)} aria-label={t('actions.editNamed', { name: c.name })}>{t('actions.edit')}</Button>
                      {c.usedCount === 0 ? <Button size="sm" variant="ghost" onClick={() => setDeleting(c)} aria-label={t('actions.deleteNamed', { name: c.name })}>{t('actions.delete')}</Button> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
      {editing !== null ? (
        <CouponDialog key={editing === 'new' ? 'new' : editing.id} coupon={editing === 'new' ? null : editing} catalog={catalog.data} onClose={() => setEditing(null)} />
      ) : null}
      <ConfirmDialog open={deleting !== null} title={t('coupons.deleteTitle')} description={t('coupons.deleteText', { name: deleting?.name ?? '' })}
        confirmLabel={t('actions.delete')} danger busy={remove.isPending} onConfirm={() => { if (deleting) remove.mutate(deleting); }} onClose={() => setDeleting(null)} />
      <RedemptionsDialog coupon={viewing} onClose={() => setViewing(null)} />
    </>
  );
}

function RedemptionsDialog({ coupon, onClose }: { coupon: AdminCoupon | null; onClose: () => void }) {
  const { t, language } = useT('admin');
  const redemptions = useCouponRedemptions(coupon?.id ?? null);
  return (
    <Dialog open={coupon !== null} onClose={onClose} title={t('coupons.redemptionsOf', { name: coupon?.name ?? '' })} size="lg">
      <QueryView query={redemptions}>
        {(data) => (
          <div className="admin-table-wrap" tabIndex={0}>
            <table className="admin-table">
              <thead><tr><th scope="col">{t('fields.date')}</th><th scope="col">{t('fields.customer')}</th><th scope="col">{t('fields.amount')}</th><th scope="col">{t('fields.discount')}</th><th scope="col">{t('fields.status')}</th></tr></thead>
              <tbody>
                {data.items.length === 0 ? <EmptyRow colSpan={5}>{t('coupons.noRedemptions')}</EmptyRow> : null}
                {data.items.map((r) => (
                  <tr key={r.id}>
                    <td><Link href={`/payments/${r.paymentId}`} onClick={onClose}>{dateTime(r.createdAt, language)}</Link></td>
                    <td><Link href={`/customers/${r.userId}`} onClick={onClose}>{r.email}</Link></td>
                    <td className="num">{usd(r.paymentAmount)}</td><td className="num">{usd(r.discount)}</td>
                    <td>{t(`paymentStatus.${r.paymentStatus}`, { defaultValue: r.paymentStatus })}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
    </Dialog>
  );
}
