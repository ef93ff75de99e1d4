import type { Port } from '@cellport/shared/schemas/catalog';
import { CopyButton } from '../../../components/ui/copy-button';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n';
import { credentialLines, curlLines, downloadText } from '../lib/export-lines';

/** Export every port as `host:port:user:pass` lines or as curl commands: copy, or download a .txt file. */
export function ExportMenu({ ports }: { ports: readonly Port[] }) {
  const { t } = useT('proxies');
  const lines = credentialLines(ports);
  const curl = curlLines(ports, window.location.origin);
  return (
    <section className="card px-export" aria-labelledby="px-export-title">
      <h2 id="px-export-title" className="px-export__title">{t('export.title')}</h2>
      <div className="px-export__group">
        <span className="px-export__label">{t('export.lines')}</span>
        <CopyButton value={lines} label={t('export.copy')} />
        <Button variant="secondary" size="sm" onClick={() => downloadText('proxies.txt', lines)}>{t('export.download')}</Button>
      </div>
      <div className="px-export__group">
        <span className="px-export__label">{t('export.curl')}</span>
        <CopyButton value={curl} label={t('export.copy')} />
        <Button variant="secondary" size="sm" onClick={() => downloadText('proxies-curl.txt', curl)}>{t('export.download')}</Button>
      </div>
    </section>
  );
}
