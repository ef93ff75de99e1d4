import type { Port } from '@cellport/shared/schemas/catalog';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog } from '../../../components/ui/dialog';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { useNewRotationLink } from '../api/new-rotation-link';
import { errorText } from '../../../lib/translate-api-error';

/** The rotation link (opening it rotates the IP without signing in): copy it, or replace it after a confirmation. */
export function RotationLinkControl({ port }: { port: Port }) {
  const { t } = useT(['proxies', 'errors']);
  const [confirming, setConfirming] = useState(false);
  const regenerate = useNewRotationLink(port);

  return (
    <div className="px-cred px-link">
      <dt>{t('link.label')}</dt>
      <dd>
        <code className="px-link__url">{port.rotationLink}</code>
        <CopyButton value={port.rotationLink} label={t('copy')} />
        <Button variant="secondary" size="sm" onClick={() => setConfirming(true)}>{t('link.regenerate')}</Button>
      </dd>
      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        size="sm"
        title={t('link.confirmTitle')}
        description={t('link.confirmText')}
        footer={<>
          <Button variant="secondary" onClick={() => setConfirming(false)}>{t('cancel')}</Button>
          <Button
            busy={regenerate.isPending}
            onClick={() => regenerate.mutate(undefined, {
              onSuccess: () => { setConfirming(false); toast.success(t('link.done')); },
              onError: (error) => toast.error(errorText(t, error)),
            })}
          >{t('link.confirm')}</Button>
        </>}
      />
    </div>
  );
}
