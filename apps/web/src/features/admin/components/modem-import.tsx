import { ADMIN_LIMITS } from '@cellport/shared/schemas/admin/common';
import { MODEM_CSV_COLUMNS, type ModemImportResponse } from '@cellport/shared/schemas/admin/modems';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n';
import { importModems } from '../api/inventory';
import { useAdminMutation } from '../api/use-admin-mutation';

/** Bulk import: paste CSV or pick a file; valid rows go in and every row gets a line in the report. */
export function ModemImport() {
  const { t } = useT(['admin', 'errors']);
  const textId = useId();
  const fileId = useId();
  const [csv, setCsv] = useState('');
  const [report, setReport] = useState<ModemImportResponse | null>(null);
  const run = useAdminMutation(importModems, {
    successKey: (r) => (r.failed ? 'inventory.importPartial' : 'inventory.importDone'),
    onSuccess: (r) => setReport(r),
  });
  const readFile = async (file: File | undefined) => {
    if (!file) return;
    setCsv(await file.text());
  };
  const tooLarge = csv.length > ADMIN_LIMITS.csvMaxChars;
  const rowMessage = (row: ModemImportResponse['rows'][number]) =>
    row.code ? t(`errors:${row.code}`, { field: row.field ?? '', defaultValue: row.error ?? '' }) : row.error ?? '';
  return (
    <section className="card admin-section" aria-labelledby="import-title">
      <h2 id="import-title">{t('inventory.importTitle')}</h2>
      <p className="admin-muted">{t('inventory.importText')}</p>
      <p className="mono admin-wrap admin-code">{MODEM_CSV_COLUMNS.join(',')}</p>
      <form onSubmit={(e) => { e.preventDefault(); if (csv.trim() && !tooLarge) run.mutate(csv); }}>
        <div className="field">
          <label htmlFor={fileId}>{t('inventory.importFile')}</label>
          <input id={fileId} type="file" accept=".csv,text/csv,text/plain" onChange={(e) => void readFile(e.target.files?.[0])} />
        </div>
        <div className="field">
          <label htmlFor={textId}>{t('inventory.importPaste')}</label>
          <textarea id={textId} rows={6} className="mono" value={csv} onChange={(e) => setCsv(e.target.value)} spellCheck={false}
            aria-invalid={tooLarge ? true : undefined} aria-describedby={tooLarge ? `${textId}-error` : undefined} />
          {tooLarge ? <p id={`${textId}-error`} className="field__error" role="alert">{t('errors:CSV_TOO_LARGE')}</p> : null}
        </div>
        <Button type="submit" busy={run.isPending} disabled={!csv.trim() || tooLarge}>{t('inventory.importRun')}</Button>
      </form>
      {report ? (
        <div className="admin-import-report" aria-live="polite">
          <h3>{t('inventory.importReport', { inserted: report.inserted, failed: report.failed })}</h3>
          <div className="admin-table-wrap" tabIndex={0}>
            <table className="admin-table">
              <thead><tr><th scope="col">{t('inventory.line')}</th><th scope="col">{t('fields.imei')}</th><th scope="col">{t('fields.result')}</th></tr></thead>
              <tbody>
                {report.rows.map((row) => (
                  <tr key={row.row} className={row.ok ? undefined : 'admin-row--bad'}>
                    <td className="num">{row.row}</td>
                    <td className="mono">{row.imei ?? '—'}</td>
                    <td>{row.ok ? t('inventory.rowOk') : rowMessage(row)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
    </section>
  );
}
