import type { AuditEntry, AuditQuery } from '@cellport/shared/schemas/admin/audit';
import { useId, useState } from 'react';
import { dateTime } from '../../../lib/dates';
import { useT } from '../../../lib/i18n';
import { useAudit } from '../api/audit';
import { PageTitle } from '../components/page-title';
import { Pagination } from '../components/pagination';
import { EmptyRow, QueryView } from '../components/query-view';
import { SearchBox } from '../components/search-box';
import { SelectField } from '../components/select-field';
import { auditDiff } from '../lib/audit-diff';

// The target types the server records (audit rows name them; 'all' is a notification to everyone).
const TARGET_TYPES = ['user', 'host', 'modem', 'port', 'country', 'carrier', 'region', 'tariff', 'rotation-interval', 'coupon', 'payment', 'all', 'settings'] as const;

/** Every operator action: who, what, when, and before → after as a readable diff; searchable and filterable. */
export function AuditPage() {
  const { t } = useT('admin');
  const fromId = useId();
  const toId = useId();
  const [query, setQuery] = useState<AuditQuery>({ page: 1, pageSize: 50 });
  const audit = useAudit(query);
  const filter = (patch: Partial<AuditQuery>) => setQuery((q) => ({ ...q, ...patch, page: 1 }));
  return (
    <>
      <PageTitle title={t('nav.audit')} description={t('audit.description')} />
      <div className="admin-toolbar">
        <SearchBox label={t('audit.search')} value={query.q ?? ''} onSearch={(q) => filter({ q: q || undefined })} />
        <SelectField label={t('audit.targetType')} value={query.target_type ?? ''} placeholder={t('all')} onChange={(v) => filter({ target_type: v || undefined })}
          options={TARGET_TYPES.map((type) => ({ value: type, label: t(`audit.targets.${type}`) }))} />
        <div className="field"><label htmlFor={fromId}>{t('audit.from')}</label><input id={fromId} type="date" value={query.from ?? ''} onChange={(e) => filter({ from: e.target.value || undefined })} /></div>
        <div className="field"><label htmlFor={toId}>{t('audit.to')}</label><input id={toId} type="date" value={query.to ?? ''} onChange={(e) => filter({ to: e.target.value || undefined })} /></div>
      </div>
      <QueryView query={audit}>
        {(data) => (
          <>
            <div className="admin-table-wrap" tabIndex={0}>
              <table className="admin-table admin-audit">
                <thead><tr><th scope="col">{t('audit.when')}</th><th scope="col">{t('audit.who')}</th><th scope="col">{t('audit.what')}</th><th scope="col">{t('audit.change')}</th></tr></thead>
                <tbody>
                  {data.items.length === 0 ? <EmptyRow colSpan={4}>{t('audit.empty')}</EmptyRow> : null}
                  {data.items.map((entry) => <AuditRow key={entry.id} entry={entry} />)}
                </tbody>
              </table>
            </div>
            <Pagination list={data} onPage={(page) => setQuery((q) => ({ ...q, page }))} />
          </>
        )}
      </QueryView>
    </>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const { t, language } = useT('admin');
  const rows = auditDiff(entry.before, entry.after);
  return (
    <tr>
      <td>{dateTime(entry.createdAt, language)}</td>
      <td>{entry.adminEmail ?? t('audit.system')}<span className="admin-muted mono"> {entry.ip}</span></td>
      <td>
        <span className="mono admin-audit__action">{entry.action}</span>
        <span className="admin-muted"> {t(`audit.targets.${entry.targetType}`, { defaultValue: entry.targetType })}{entry.targetId ? ` ${entry.targetId}` : ''}</span>
      </td>
      <td>
        {rows.length === 0 ? <span className="admin-muted">{t('audit.noChange')}</span> : (
          <table className="admin-diff">
            <caption className="visually-hidden">{t('audit.diffCaption', { action: entry.action })}</caption>
            <thead><tr><th scope="col">{t('audit.field')}</th><th scope="col">{t('audit.before')}</th><th scope="col">{t('audit.after')}</th></tr></thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.path} data-change={row.change}>
                  <th scope="row" className="mono">{row.path}</th>
                  <td className="admin-diff__before">{row.before === null ? <span className="admin-muted">—</span> : <del>{row.before}</del>}</td>
                  <td className="admin-diff__after">{row.after === null ? <span className="admin-muted">—</span> : <ins>{row.after}</ins>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </td>
    </tr>
  );
}
