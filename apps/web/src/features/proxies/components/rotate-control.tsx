import type { Port } from '@cellport/shared/schemas/catalog';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { useRotatePort } from '../api/rotate-port';
import { errorText } from '../../../lib/translate-api-error';

/** 'Rotate now': the modem takes a few seconds; then old → new IP is shown beside the button. */
export function RotateControl({ port }: { port: Port }) {
  const { t } = useT(['proxies', 'errors']);
  const rotate = useRotatePort(port);
  const [result, setResult] = useState<{ old_ip: string; new_ip: string } | null>(null);

  function run() {
    setResult(null);
    rotate.mutate(undefined, {
      onSuccess: (r) => {
        setResult(r);
        toast.success(r.old_ip === r.new_ip ? t('rotate.same') : t('rotate.done', { ip: r.new_ip }));
      },
      // ROTATION_TOO_SOON carries retryAfter, which errorText fills into the translated message.
      onError: (error) => toast.error(errorText(t, error)),
    });
  }

  return (
    <div className="px-rotate">
      <Button variant="secondary" size="sm" onClick={run} busy={rotate.isPending} disabled={port.status === 'expired'}>
        {rotate.isPending ? t('rotate.running') : t('rotate.button')}
      </Button>
      <span className="px-rotate__result" role="status" aria-live="polite" data-testid="rotation-result">
        {rotate.isPending ? t('rotate.progress') : result ? <><code>{result.old_ip}</code> → <code>{result.new_ip}</code></> : null}
      </span>
    </div>
  );
}
