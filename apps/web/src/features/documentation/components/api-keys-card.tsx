import type { ApiKey } from '@cellport/shared/schemas/api-keys';
import { API_KEY_NAME_MAX } from '@cellport/shared/schemas/api-keys';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { dateTime } from '../../../lib/dates';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../api/api-keys';

/** API keys: create with a name (the key is shown once), list with prefix and dates, revoke after confirming. */
export function ApiKeysCard() {
  const { t, language } = useT(['docs', 'common']);
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [confirm, setConfirm] = useState<ApiKey | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) { setNameError(t('keys.nameRequired')); return; }
    setNameError(undefined);
    create.mutate(trimmed, {
      onSuccess: (result) => { setCreated({ name: result.data.name, key: result.key }); setName(''); },
      onError: (error) => toast.error(t('keys.createFailed', { reason: error.message })),
    });
  };
  const doRevoke = () => {
    if (!confirm) return;
    revoke.mutate(confirm._id, {
      onSuccess: () => { toast.success(t('keys.revoked', { name: confirm.name })); setConfirm(null); },
      onError: (error) => toast.error(t('keys.revokeFailed', { reason: error.message })),
    });
  };

  return (
    <section className="card docs-section" aria-labelledby="docs-keys-title">
      <h2 id="docs-keys-title" className="docs-section__title">{t('keys.title')}</h2>
      <p className="docs-section__lead">{t('keys.lead')}</p>
      <form className="docs-keys__form" onSubmit={submit} noValidate>
        <TextField label={t('keys.name')} hint={t('keys.nameHint')} value={name} maxLength={API_KEY_NAME_MAX}
          onChange={(e) => setName(e.target.value)} error={nameError} autoComplete="off" />
        <Button type="submit" busy={create.isPending}>{t('keys.create')}</Button>
      </form>

      {keys.isPending ? <Spinner size={22} label={t('common:loading')} /> : keys.isError ? (
        <p className="docs-error" role="alert">{t('keys.loadFailed')} <Button variant="link" size="sm" onClick={() => void keys.refetch()}>{t('common:actions.retry')}</Button></p>
      ) : keys.data.length === 0 ? (
        <p className="docs-muted">{t('keys.empty')}</p>
      ) : (
        <div className="docs-table-scroll" tabIndex={0} role="region" aria-label={t('keys.title')}>
          <table className="docs-table">
            <caption className="visually-hidden">{t('keys.title')}</caption>
            <thead><tr>
              <th scope="col">{t('keys.name')}</th><th scope="col">{t('keys.prefix')}</th>
              <th scope="col">{t('keys.created')}</th><th scope="col">{t('keys.lastUsed')}</th>
              <th scope="col"><span className="visually-hidden">{t('keys.actions')}</span></th>
            </tr></thead>
            <tbody>
              {keys.data.map((key) => (
                <tr key={key._id}>
                  <td data-label={t('keys.name')}>{key.name}</td>
                  <td data-label={t('keys.prefix')}><code>{key.prefix}…</code></td>
                  <td data-label={t('keys.created')}>{dateTime(key.createdAt, language)}</td>
                  <td data-label={t('keys.lastUsed')}>{key.lastUsedAt ? dateTime(key.lastUsedAt, language) : t('keys.never')}</td>
                  <td className="docs-table__actions">
                    <Button variant="danger" size="sm" onClick={() => setConfirm(key)} aria-label={t('keys.revokeNamed', { name: key.name })}>
                      {t('keys.revoke')}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <Dialog open={created !== null} onClose={() => setCreated(null)} title={t('keys.createdTitle', { name: created?.name ?? '' })}
        description={t('keys.createdText')} footer={<Button onClick={() => setCreated(null)}>{t('keys.done')}</Button>}>
        <div className="docs-new-key">
          <code data-testid="new-api-key">{created?.key}</code>
          <CopyButton value={created?.key ?? ''} />
        </div>
      </Dialog>

      <Dialog open={confirm !== null} onClose={() => setConfirm(null)} size="sm" title={t('keys.confirmTitle', { name: confirm?.name ?? '' })}
        description={t('keys.confirmText')}
        footer={<>
          <Button variant="secondary" onClick={() => setConfirm(null)}>{t('common:actions.cancel')}</Button>
          <Button variant="danger" busy={revoke.isPending} onClick={doRevoke}>{t('keys.revoke')}</Button>
        </>} />
    </section>
  );
}
