import { agentEnvLines, type Host } from '@cellport/shared/schemas/admin/hosts';
import { useState } from 'react';
import { CopyButton } from '../../../components/ui/copy-button';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useT } from '../../../lib/i18n';
import { issueHostKey } from '../api/inventory';
import { useAdminMutation } from '../api/use-admin-mutation';
import { ConfirmDialog } from './confirm-dialog';

/**
 * "Issue key": a confirmation that says what happens to the current key, then the new key — shown this once, with
 * a copy button and the settings a stand-alone agent starts with (`npm run agent`).
 */
export function HostKeyFlow({ host, onClose }: { host: Host | null; onClose: () => void }) {
  const { t } = useT('admin');
  const [issued, setIssued] = useState<{ host: Host; key: string } | null>(null);
  const issue = useAdminMutation((h: Host) => issueHostKey(h.id), {
    successKey: 'hosts.keyIssuedToast',
    onSuccess: (result, h) => { setIssued({ host: h, key: result.key }); onClose(); },
  });
  const lines = issued ? agentEnvLines(window.location.origin, issued.key) : [];
  const command = [...lines.map((line) => `${line} \\`), 'npm run agent'].join('\n');
  return (
    <>
      <ConfirmDialog
        open={host !== null}
        title={host ? t('hosts.keyConfirmTitle', { name: host.name }) : ''}
        description={host ? t(host.hasKey ? 'hosts.keyConfirmReplace' : 'hosts.keyConfirmFirst', { name: host.name }) : ''}
        confirmLabel={t('hosts.issueKey')}
        danger={host?.hasKey ?? false}
        busy={issue.isPending}
        onConfirm={() => { if (host) issue.mutate(host); }}
        onClose={onClose}
      />
      <Dialog
        open={issued !== null}
        onClose={() => setIssued(null)}
        title={issued ? t('hosts.keyTitle', { name: issued.host.name }) : ''}
        description={t('hosts.keyOnce')}
        size="md"
        footer={<Button onClick={() => setIssued(null)}>{t('hosts.keyDone')}</Button>}
      >
        {issued ? (
          <>
            <p className="admin-key" data-testid="host-key">
              <code>{issued.key}</code> <CopyButton value={issued.key} label={t('hosts.copyKey')} />
            </p>
            <p>{t('hosts.keyHowTo')}</p>
            <pre className="admin-code"><code>{command}</code></pre>
            <p className="admin-actions-row"><CopyButton value={command} label={t('hosts.copyCommand')} /></p>
            <p className="admin-muted">{t('hosts.keyDataDir')}</p>
          </>
        ) : null}
      </Dialog>
    </>
  );
}
