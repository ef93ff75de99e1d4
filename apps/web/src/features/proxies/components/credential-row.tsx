import { CopyButton } from '../../../components/ui/copy-button';
import { useT } from '../../../lib/i18n';

/** One labelled value (endpoint, login, password…) in monospace with its copy button. */
export function CredentialRow({ label, value, testId }: { label: string; value: string; testId?: string }) {
  const { t } = useT('proxies');
  return (
    <div className="px-cred">
      <dt>{label}</dt>
      <dd>
        <code data-testid={testId}>{value}</code>
        <CopyButton value={value} label={t('copy')} className="px-cred__copy" />
      </dd>
    </div>
  );
}
