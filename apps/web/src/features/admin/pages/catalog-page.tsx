import type {
  AdminCarrier, AdminCatalogResponse, AdminCountry, AdminRegion, AdminTariff, RotationInterval,
} from '@cellport/shared/schemas/admin/catalog';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n';
import { deleteCarrier, deleteCountry, deleteRegion, deleteRotationInterval, deleteTariff, useAdminCatalog } from '../api/catalog';
import { useAdminMutation } from '../api/use-admin-mutation';
import { CarrierDialog, CountryDialog, RegionDialog, RotationDialog } from '../components/catalog-dialogs';
import { ConfirmDialog } from '../components/confirm-dialog';
import { PageTitle } from '../components/page-title';
import { EmptyRow, QueryView } from '../components/query-view';
import { StatusBadge } from '../components/status-badge';
import { Tabs } from '../components/tabs';
import { TariffDialog } from '../components/tariff-dialog';
import { catalogNames } from '../lib/catalog-names';
import { usd } from '../lib/format';
import { limitsSummary } from '../lib/tariff-limits';

type TabKey = 'countries' | 'carriers' | 'regions' | 'tariffs' | 'rotation';
type Editing =
  | { kind: 'country'; item: AdminCountry | null } | { kind: 'carrier'; item: AdminCarrier | null } | { kind: 'region'; item: AdminRegion | null }
  | { kind: 'tariff'; item: AdminTariff | null } | { kind: 'rotation'; item: RotationInterval | null };
type Deleting = { kind: 'country' | 'carrier' | 'region' | 'tariff'; id: string; name: string } | { kind: 'rotation'; id: number; name: string };

/** Countries, carriers, regions, tariffs and rotation-interval choices, each with add and edit. */
export function CatalogPage() {
  const { t } = useT('admin');
  const [tab, setTab] = useState<TabKey>('countries');
  const catalog = useAdminCatalog();
  return (
    <>
      <PageTitle title={t('nav.catalog')} description={t('catalog.description')} />
      <Tabs
        label={t('nav.catalog')} selected={tab} onSelect={(k) => setTab(k as TabKey)}
        tabs={[
          { key: 'countries', label: t('catalog.countries') }, { key: 'carriers', label: t('catalog.carriers') },
          { key: 'regions', label: t('catalog.regions') }, { key: 'tariffs', label: t('catalog.tariffs') },
          { key: 'rotation', label: t('catalog.rotation') },
        ]}
      >
        <QueryView query={catalog}>{(data) => <CatalogTab tab={tab} data={data} />}</QueryView>
      </Tabs>
    </>
  );
}

function CatalogTab({ tab, data }: { tab: TabKey; data: AdminCatalogResponse }) {
  const { t, language } = useT('admin');
  const names = catalogNames(data, language);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<Deleting | null>(null);
  const remove = useAdminMutation(
    (d: Deleting) => {
      if (d.kind === 'rotation') return deleteRotationInterval(d.id);
      if (d.kind === 'tariff') return deleteTariff(d.id);
      return d.kind === 'country' ? deleteCountry(d.id) : d.kind === 'carrier' ? deleteCarrier(d.id) : deleteRegion(d.id);
    },
    { successKey: 'catalog.deleted', onSuccess: () => setDeleting(null) },
  );
  const close = () => setEditing(null);
  const rowActions = (label: string, onEdit: () => void, onDelete?: () => void) => (
    <td className="admin-actions">
      <Button size="sm" variant="secondary" onClick={onEdit} aria-label={t('actions.editNamed', { name: label })}>{t('actions.edit')}</Button>
      {onDelete ? <Button size="sm" variant="ghost" onClick={onDelete} aria-label={t('actions.deleteNamed', { name: label })}>{t('actions.delete')}</Button> : null}
    </td>
  );
  const actionsHeader = <th scope="col"><span className="visually-hidden">{t('fields.actions')}</span></th>;

  let addLabel = '';
  let onAdd = () => {};
  let table: React.ReactNode = null;
  if (tab === 'countries') {
    addLabel = t('catalog.addCountry'); onAdd = () => setEditing({ kind: 'country', item: null });
    table = (
      <table className="admin-table">
        <thead><tr><th scope="col">{t('fields.isoCode')}</th><th scope="col">English</th><th scope="col" lang="ru">Русский</th><th scope="col" lang="zh-CN">中文</th>{actionsHeader}</tr></thead>
        <tbody>
          {data.countries.length === 0 ? <EmptyRow colSpan={5}>{t('catalog.noCountries')}</EmptyRow> : null}
          {data.countries.map((c) => (
            <tr key={c.id}>
              <td className="mono">{c.code}</td><td>{c.names.en}</td><td lang="ru">{c.names.ru}</td><td lang="zh-CN">{c.names.cn}</td>
              {rowActions(c.code, () => setEditing({ kind: 'country', item: c }), () => setDeleting({ kind: 'country', id: c.id, name: c.names[language] || c.code }))}
            </tr>
          ))}
        </tbody>
      </table>
    );
  } else if (tab === 'carriers') {
    addLabel = t('catalog.addCarrier'); onAdd = () => setEditing({ kind: 'carrier', item: null });
    table = (
      <table className="admin-table">
        <thead><tr><th scope="col">{t('fields.name')}</th><th scope="col">{t('fields.country')}</th><th scope="col">{t('fields.asn')}</th>{actionsHeader}</tr></thead>
        <tbody>
          {data.carriers.length === 0 ? <EmptyRow colSpan={4}>{t('catalog.noCarriers')}</EmptyRow> : null}
          {data.carriers.map((c) => (
            <tr key={c.id}>
              <td>{c.name}</td><td>{names.country(c.countryId)}</td><td>{c.asn ? `AS${c.asn}` : '—'}</td>
              {rowActions(c.name, () => setEditing({ kind: 'carrier', item: c }), () => setDeleting({ kind: 'carrier', id: c.id, name: c.name }))}
            </tr>
          ))}
        </tbody>
      </table>
    );
  } else if (tab === 'regions') {
    addLabel = t('catalog.addRegion'); onAdd = () => setEditing({ kind: 'region', item: null });
    table = (
      <table className="admin-table">
        <thead>
          <tr>
            <th scope="col">English</th><th scope="col" lang="ru">Русский</th><th scope="col" lang="zh-CN">中文</th>
            <th scope="col">{t('fields.country')}</th><th scope="col">{t('fields.carrier')}</th>{actionsHeader}
          </tr>
        </thead>
        <tbody>
          {data.regions.length === 0 ? <EmptyRow colSpan={6}>{t('catalog.noRegions')}</EmptyRow> : null}
          {data.regions.map((r) => (
            <tr key={r.id}>
              {/* An empty Russian or Chinese name reads English to customers: shown as the dimmed English name. */}
              <td>{r.names.en}</td>
              <td lang={r.names.ru ? 'ru' : 'en'} className={r.names.ru ? undefined : 'admin-muted'}>{r.names.ru || r.names.en}</td>
              <td lang={r.names.cn ? 'zh-CN' : 'en'} className={r.names.cn ? undefined : 'admin-muted'}>{r.names.cn || r.names.en}</td>
              <td>{names.country(r.countryId)}</td><td>{r.carrierId ? names.carrier(r.carrierId) : t('catalog.anyCarrier')}</td>
              {rowActions(names.region(r.id), () => setEditing({ kind: 'region', item: r }), () => setDeleting({ kind: 'region', id: r.id, name: names.region(r.id) }))}
            </tr>
          ))}
        </tbody>
      </table>
    );
  } else if (tab === 'tariffs') {
    addLabel = t('catalog.addTariff'); onAdd = () => setEditing({ kind: 'tariff', item: null });
    table = (
      <table className="admin-table">
        <thead>
          <tr>
            <th scope="col">{t('fields.name')}</th><th scope="col">{t('fields.price')}</th><th scope="col">{t('fields.where')}</th>
            <th scope="col">{t('fields.kindShared')}</th><th scope="col">{t('fields.rotation')}</th><th scope="col">{t('fields.recurring')}</th>
            <th scope="col">{t('fields.limits')}</th><th scope="col">{t('fields.status')}</th>{actionsHeader}
          </tr>
        </thead>
        <tbody>
          {data.tariffs.length === 0 ? <EmptyRow colSpan={9}>{t('catalog.noTariffs')}</EmptyRow> : null}
          {data.tariffs.map((tf) => (
            <tr key={tf.id}>
              <td>{tf.names[language] || tf.names.en}</td>
              <td className="num">{t('catalog.pricePer', { price: usd(tf.price), period: t(`periods.${tf.period}`) })}</td>
              <td>{names.country(tf.countryId)}{tf.carrierId ? ` · ${names.carrier(tf.carrierId)}` : ''}{tf.regionId ? ` · ${names.region(tf.regionId)}` : ''}</td>
              <td>{tf.isShared ? t('shared') : t('dedicated')}</td>
              <td>{tf.rotationInterval === 0 ? t('onDemand') : t('minutes', { count: tf.rotationInterval })}</td>
              <td>{tf.recurring ? t('yes') : t('no')}</td>
              <td>{limitsSummary(tf.limits, t)}</td>
              <td>{tf.active ? <StatusBadge tone="ok">{t('catalog.onSale')}</StatusBadge> : <StatusBadge tone="neutral">{t('catalog.hidden')}</StatusBadge>}</td>
              {rowActions(tf.names[language] || tf.names.en, () => setEditing({ kind: 'tariff', item: tf }),
                () => setDeleting({ kind: 'tariff', id: tf.id, name: tf.names[language] || tf.names.en }))}
            </tr>
          ))}
        </tbody>
      </table>
    );
  } else {
    addLabel = t('catalog.addRotation'); onAdd = () => setEditing({ kind: 'rotation', item: null });
    table = (
      <table className="admin-table">
        <thead><tr><th scope="col">{t('fields.minutes')}</th><th scope="col">{t('fields.labels')}</th><th scope="col">{t('fields.status')}</th>{actionsHeader}</tr></thead>
        <tbody>
          {data.rotationIntervals.length === 0 ? <EmptyRow colSpan={4}>{t('catalog.noRotation')}</EmptyRow> : null}
          {data.rotationIntervals.map((r) => {
            const label = r.minutes === 0 ? t('onDemand') : t('minutes', { count: r.minutes });
            return (
              <tr key={r.minutes}>
                <td>{label}</td><td>{r.labels ? r.labels[language] : <span className="admin-muted">{t('catalog.builtInLabel')}</span>}</td>
                <td>{r.active ? <StatusBadge tone="ok">{t('catalog.offered')}</StatusBadge> : <StatusBadge tone="neutral">{t('catalog.hidden')}</StatusBadge>}</td>
                {rowActions(label, () => setEditing({ kind: 'rotation', item: r }), () => setDeleting({ kind: 'rotation', id: r.minutes, name: label }))}
              </tr>
            );
          })}
        </tbody>
      </table>
    );
  }

  return (
    <>
      <div className="admin-toolbar admin-toolbar--end"><Button onClick={onAdd} disabled={tab !== 'countries' && tab !== 'rotation' && data.countries.length === 0}>{addLabel}</Button></div>
      <div className="admin-table-wrap" tabIndex={0}>{table}</div>
      {/* Each dialog is mounted per opening, keyed by what it edits, so its form starts filled (see tariff-dialog.tsx). */}
      {editing?.kind === 'country' ? <CountryDialog key={editing.item?.id ?? 'new'} country={editing.item} onClose={close} /> : null}
      {editing?.kind === 'carrier' ? <CarrierDialog key={editing.item?.id ?? 'new'} carrier={editing.item} catalog={data} onClose={close} /> : null}
      {editing?.kind === 'region' ? <RegionDialog key={editing.item?.id ?? 'new'} region={editing.item} catalog={data} onClose={close} /> : null}
      {editing?.kind === 'tariff' ? <TariffDialog key={editing.item?.id ?? 'new'} tariff={editing.item} catalog={data} onClose={close} /> : null}
      {editing?.kind === 'rotation' ? <RotationDialog key={editing.item?.minutes ?? 'new'} interval={editing.item} onClose={close} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        title={t('catalog.deleteTitle')}
        description={t('catalog.deleteText', { name: deleting?.name ?? '' })}
        confirmLabel={t('actions.delete')}
        danger
        busy={remove.isPending}
        onConfirm={() => { if (deleting) remove.mutate(deleting); }}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
