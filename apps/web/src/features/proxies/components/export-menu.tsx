import type { Port } from '@cellport/shared/schemas/catalog';
import { useId, useState } from 'react';
import { CopyButton } from '../../../components/ui/copy-button';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n';
import { ambiguousIn, downloadText, EXPORT_FORMATS, exportLines, type ExportFormat } from '../lib/export-lines';

/**
 * Export the ports shown (all, or those with one tag) in the format a tool imports: `host:port:user:pass` for the HTTP
 * or the SOCKS5 port, `user:pass@host:port`, `http://` or `socks5://` URLs, or curl commands. Copy, or download a .txt
 * file named after the tag and the format. A format that cannot carry a `:` or `@` in a credential says so.
 */
export function ExportMenu({ ports, tag = null }: { ports: readonly Port[]; tag?: string | null }) {
  const { t } = useT('proxies');
  const id = useId();
  const [format, setFormat] = useState<ExportFormat>('http-colon');
  const lines = exportLines(ports, format, window.location.origin);
  const base = tag ? `proxies-${tag.replace(/[^\p{L}\p{N}_.-]/gu, '_')}` : 'proxies';
  const ambiguous = ambiguousIn(ports, format);
  return (
    <section className="card px-export" aria-labelledby="px-export-title">
      <h2 id="px-export-title" className="px-export__title">{tag ? t('export.titleTag', { tag, count: ports.length }) : t('export.title')}</h2>
      <div className="px-export__group">
        <label className="px-export__label" htmlFor={`${id}-format`}>{t('export.format')}</label>
        <select id={`${id}-format`} value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)}
          aria-describedby={ambiguous ? `${id}-ambiguous` : undefined}>
          {EXPORT_FORMATS.map((f) => <option key={f} value={f}>{t(`export.formats.${f}`)}</option>)}
        </select>
        <CopyButton value={lines} label={t('export.copy')} />
        <Button variant="secondary" size="sm" onClick={() => downloadText(`${base}-${format}.txt`, lines)}>{t('export.download')}</Button>
      </div>
      {ambiguous ? <p id={`${id}-ambiguous`} className="px-export__note" role="note">{t('export.ambiguous')}</p> : null}
    </section>
  );
}
