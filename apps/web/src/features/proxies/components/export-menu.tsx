import type { Port } from '@cellport/shared/schemas/catalog';
import { CopyButton } from '../../../components/ui/copy-button';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n';
import { credentialLines, curlLines, downloadText } from '../lib/export-lines';

/**
 * Export the ports shown (all, or those with one tag) as `host:port:user:pass` lines or as curl commands: copy, or
 * download a .txt file named after the tag.
 */
export function ExportMenu({ ports, tag = null }: { ports: readonly Port[]; tag?: string | null }) {
  const { t } = useT('proxies');
  const lines = credentialLines(ports);
  const curl = curlLines(ports, window.location.origin);
  const base = tag ? `proxies-${tag.replace(/[^\p{L}\p{N}_.-]/gu, '_')}` : 'proxies';
  return (
    <section className="card px-export" aria-labelledby="px-export-title">
      <h2 id="px-export-title" className="px-export__title">{tag ? t('export.titleTag', { tag, count: ports.length }) : t('export.title')}</h2>
      <div className="px-export__group">
        <span className="px-export__label">{t('export.lines')}</span>
        <CopyButton value={lines} label={t('export.copy')} />
        <Button variant="secondary" size="sm" onClick={() => downloadText(`${base}.txt`, lines)}>{t('export.download')}</Button>
      </div>
      <div className="px-export__group">
        <span className="px-export__label">{t('export.curl')}</span>
        <CopyButton value={curl} label={t('export.copy')} />
        <Button variant="secondary" size="sm" onClick={() => downloadText(`${base}-curl.txt`, curl)}>{t('export.download')}</Button>
      </div>
    </section>
  );
}
