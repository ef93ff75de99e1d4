import { MODEM_STATUSES, type AdminModem, type ModemsQuery } from '@cellport/shared/schemas/admin/modems';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n';
import { useAdminCatalog } from '../api/catalog';
import { returnModemToService, updateModem, useHosts, useModems, useStock } from '../api/inventory';
import { useAdminMutation } from '../api/use-admin-mutation';
import { ConfirmDialog } from '../components/confirm-dialog';
import { GatewaysPanel } from '../components/gateways-panel';
import { HostsPanel } from '../components/hosts-panel';
import { ModemDialog } from '../components/modem-dialog';
import { ModemImport } from '../components/modem-import';
import { PageTitle } from '../components/page-title';
import { Pagination } from '../components/pagination';
import { EmptyRow, QueryView } from '../components/query-view';
import { SearchBox } from '../components/search-box';
import { SelectField } from '../components/select-field';
import { StatusBadge } from '../components/status-badge';
import { Tabs } from '../components/tabs';
import { catalogNames } from '../lib/catalog-names';

const TAB_KEYS = ['modems', 'hosts', 'gateways', 'stock', 'import'] as const;
type TabKey = (typeof TAB_KEYS)[number];

/**
 * Hosts and modems (status, IP, who uses each), add/edit/retire, the gateways hosts behind NAT are reached through,
 * CSV import, stock by country/carrier/region. The
 * tab is in the address (/inventory/hosts), so a tab can be linked to and survives a reload.
 */
export function InventoryPage({ tab: tabParam }: { tab?: string }) {
  const { t } = useT('admin');
  const [, navigate] = useLocation();
  const tab: TabKey = (TAB_KEYS as readonly string[]).includes(tabParam ?? '') ? tabParam as TabKey : 'modems';
  const setTab = (key: TabKey) => navigate(key === 'modems' ? '/inventory' : `/inventory/${key}`, { replace: true });
  return (
    <>
      <PageTitle title={t('nav.inventory')} description={t('inventory.description')} />
      <Tabs
        label={t('nav.inventory')}
        selected={tab}
        onSelect={(key) => setTab(key as TabKey)}
        tabs={[
          { key: 'modems', label: t('inventory.modems') }, { key: 'hosts', label: t('inventory.hosts') },
          { key: 'gateways', label: t('inventory.gateways') }, { key: 'stock', label: t('inventory.stock') }, { key: 'import', label: t('inventory.import') },
        ]}
      >
        {tab === 'modems' ? <ModemsPanel /> : tab === 'hosts' ? <HostsPanel /> : tab === 'gateways' ? <GatewaysPanel />
          : tab === 'stock' ? <StockPanel /> : <ModemImport />}
      </Tabs>
    </>
  );
}

function ModemsPanel() {
  // 'proxies' holds the fingerprint presets' names (the preset column and the modem dialog).
  const { t, language } = useT(['admin', 'proxies']);
  const [query, setQuery] = useState<ModemsQuery>({ page: 1, pageSize: 50 });
  const [editing, setEditing] = useState<AdminModem | null | 'new'>(null);
  const [retiring, setRetiring] = useState<AdminModem | null>(null);
  const modems = useModems(query);
  const hosts = useHosts();
  const catalog = useAdminCatalog();
  const names = catalogNames(catalog.data, language);
  const retire = useAdminMutation(
    (m: AdminModem) => updateModem({ id: m.id, retired: !m.retired }),
    { successKey: (_r, m) => (m.retired ? 'inventory.restored' : 'inventory.retired'), onSuccess: () => setRetiring(null) },
  );
  const backInService = useAdminMutation((m: AdminModem) => returnModemToService(m.id), { successKey: 'inventory.returnedToService' });
  const filter = (patch: Partial<ModemsQuery>) => setQuery((q) => ({ ...q, ...patch, page: 1 }));
  const ready = hosts.data && catalog.data;
  return (
    <>
      <div className="admin-toolbar">
        <SearchBox label={t('inventory.searchModems')} value={query.q ?? ''} onSearch={(q) => filter({ q: q || undefined })} />
        <SelectField label={t('fields.status')} value={query.status ?? ''} placeholder={t('all')}
          onChange={(v) => filter({ status: (v || undefined) as ModemsQuery['status'] })}
          options={MODEM_STATUSES.map((s) => ({ value: s, label: t(`modemStatus.${s}`) }))} />
        <SelectField label={t('fields.host')} value={query.host_id ?? ''} placeholder={t('all')} onChange={(v) => filter({ host_id: v || undefined })}
          options={(hosts.data?.items ?? []).map((h) => ({ value: h.id, label: h.name }))} />
        <SelectField label={t('fields.country')} value={query.country_id ?? ''} placeholder={t('all')} onChange={(v) => filter({ country_id: v || undefined })}
          options={(catalog.data?.countries ?? []).map((c) => ({ value: c.id, label: names.country(c.id) }))} />
        <Button onClick={() => setEditing('new')} disabled={!ready || hosts.data.items.length === 0}>{t('inventory.addModem')}</Button>
      </div>
      {hosts.data && hosts.data.items.length === 0 ? <p className="admin-muted">{t('inventory.needHost')}</p> : null}
      <QueryView query={modems}>
        {(data) => (
          <>
            <div className="admin-table-wrap" tabIndex={0}>
              <table className="admin-table">
                <thead>
                  <tr>
                    <th scope="col">{t('fields.imei')}</th><th scope="col">{t('fields.host')}</th><th scope="col">{t('fields.ip')}</th>
                    <th scope="col">{t('fields.where')}</th><th scope="col">{t('fields.status')}</th>
                    <th scope="col">{t('inventory.fingerprint')}</th><th scope="col">{t('fields.usedBy')}</th>
                    <th scope="col"><span className="visually-hidden">{t('fields.actions')}</span></th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.length === 0 ? <EmptyRow colSpan={8}>{t('inventory.noModems')}</EmptyRow> : null}
                  {data.items.map((m) => (
                    <tr key={m.id}>
                      <td className="mono">{m.imei}</td>
                      <td>{m.hostName}<span className="admin-muted"> :{m.httpPort}/{m.socksPort}</span></td>
                      <td className="mono">{m.extIp}</td>
                      <td>{names.country(m.countryId)} · {names.carrier(m.carrierId)}{m.regionId ? ` · ${names.region(m.regionId)}` : ''}
                        <span className="admin-muted"> · {m.isShared ? t('sharedSlots', { used: m.usedSlots, capacity: m.capacity }) : t('dedicated')}</span></td>
                      <td>{m.retired ? <StatusBadge tone="neutral">{t('modemStatus.retired')}</StatusBadge>
                        : m.online ? <StatusBadge tone="ok">{t('modemStatus.online')}</StatusBadge> : <StatusBadge tone="bad">{t('modemStatus.offline')}</StatusBadge>}
                        {m.maintenanceSince && !m.retired ? <> <StatusBadge tone="warn">{t('modemStatus.maintenance')}</StatusBadge></> : null}</td>
                      <td className="admin-wrap admin-fingerprint"><ModemFingerprint modem={m} /></td>
                      <td>{m.users.length === 0 ? <span className="admin-muted">{t('inventory.free')}</span> : (
                        <ul className="admin-plain-list">
                          {m.users.map((u) => <li key={u.portId}><Link href={`/customers/${u.userId}`}>{u.email}</Link> <span className="admin-muted">({u.portName})</span></li>)}
                        </ul>
                      )}</td>
                      <td className="admin-actions">
                        <Button size="sm" variant="secondary" disabled={!ready} onClick={() => setEditing(m)} aria-label={t('inventory.editModemNamed', { imei: m.imei })}>{t('actions.edit')}</Button>
                        {m.maintenanceSince && !m.retired ? (
                          <Button size="sm" variant="secondary" busy={backInService.isPending && backInService.variables?.id === m.id} onClick={() => backInService.mutate(m)}
                            aria-label={t('inventory.returnToServiceNamed', { imei: m.imei })}>{t('inventory.returnToService')}</Button>
                        ) : null}
                        <Button size="sm" variant={m.retired ? 'secondary' : 'danger'} onClick={() => setRetiring(m)} aria-label={t(m.retired ? 'inventory.restoreNamed' : 'inventory.retireNamed', { imei: m.imei })}>
                          {m.retired ? t('inventory.restore') : t('inventory.retire')}
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pagination list={data} onPage={(page) => setQuery((q) => ({ ...q, page }))} />
          </>
        )}
      </QueryView>
      {ready && editing !== null ? (
        <ModemDialog key={editing === 'new' ? 'new' : editing.id} modem={editing === 'new' ? null : editing}
          hosts={hosts.data.items} catalog={catalog.data} onClose={() => setEditing(null)} />
      ) : null}
      <ConfirmDialog
        open={retiring !== null}
        title={retiring?.retired ? t('inventory.restoreTitle') : t('inventory.retireTitle')}
        description={retiring ? t(retiring.retired ? 'inventory.restoreText' : 'inventory.retireText', { imei: retiring.imei, users: retiring.users.length }) : ''}
        confirmLabel={retiring?.retired ? t('inventory.restore') : t('inventory.retire')}
        danger={!retiring?.retired}
        busy={retire.isPending}
        onConfirm={() => { if (retiring) retire.mutate(retiring); }}
        onClose={() => setRetiring(null)}
      />
    </>
  );
}

/**
 * A modem's OS fingerprint presets (issue 30): the default of its ports that choose none, whether its host can apply
 * presets at all (the agent's reason when not), and each of its ports whose preset failed there with the reason: those
 * refuse new connections until it can (fail closed).
 */
function ModemFingerprint({ modem: m }: { modem: AdminModem }) {
  const { t } = useT(['admin', 'proxies']);
  const portName = (portId: string) => m.users.find((u) => u.portId === portId)?.portName ?? portId;
  return (
    <div data-testid="modem-fingerprint">
      <div>{m.fingerprintDefault
        ? t('inventory.fingerprintDefault', { preset: t(`proxies:fingerprint.presets.${m.fingerprintDefault}.name`) })
        : <span className="admin-muted">{t('inventory.fingerprintTariff')}</span>}</div>
      {m.fingerprintUnavailable ? (
        <div data-testid="modem-fingerprint-unavailable">
          <StatusBadge tone="warn">{t('inventory.fingerprintUnavailable')}</StatusBadge>
          <div className="admin-problem">{m.fingerprintUnavailable}</div>
        </div>
      ) : null}
      {m.fingerprintFailing.length > 0 ? (
        <ul className="admin-plain-list" data-testid="modem-fingerprint-failing">
          {m.fingerprintFailing.map((f) => (
            <li key={f.portId}><StatusBadge tone="bad">{t('modemStatus.presetFailing')}</StatusBadge>{' '}
              <span className="admin-problem">{t('inventory.fingerprintFailingPort', { port: portName(f.portId), reason: f.reason })}</span></li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function StockPanel() {
  const { t } = useT('admin');
  const stock = useStock();
  return (
    <QueryView query={stock}>
      {(data) => (
        <div className="admin-table-wrap" tabIndex={0}>
          <table className="admin-table">
            <caption className="visually-hidden">{t('inventory.stock')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('fields.country')}</th><th scope="col">{t('fields.carrier')}</th><th scope="col">{t('fields.region')}</th>
                <th scope="col">{t('fields.kindShared')}</th><th scope="col">{t('inventory.modems')}</th><th scope="col">{t('inventory.slots')}</th>
                <th scope="col">{t('inventory.used')}</th><th scope="col">{t('inventory.freeSlots')}</th><th scope="col">{t('inventory.offline')}</th>
              </tr>
            </thead>
            <tbody>
              {data.items.length === 0 ? <EmptyRow colSpan={9}>{t('inventory.noStock')}</EmptyRow> : null}
              {data.items.map((s) => (
                <tr key={`${s.countryId}-${s.carrierId}-${s.regionId ?? ''}-${s.isShared}`}>
                  <td>{s.countryCode}</td><td>{s.carrierName}</td><td>{s.regionName ?? '—'}</td><td>{s.isShared ? t('shared') : t('dedicated')}</td>
                  <td className="num">{s.modems}</td><td className="num">{s.slots}</td><td className="num">{s.used}</td>
                  <td className="num"><strong>{s.free}</strong></td><td className="num">{s.offline}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={4}>{t('inventory.total')}</th>
                <td className="num">{data.totals.modems}</td><td className="num">{data.totals.slots}</td><td className="num">{data.totals.used}</td>
                <td className="num"><strong>{data.totals.free}</strong></td><td className="num">{data.totals.offline}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </QueryView>
  );
}
