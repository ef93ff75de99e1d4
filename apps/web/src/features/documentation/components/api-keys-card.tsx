import type { ApiKey, ApiKeyScope } from '@cellport/shared/schemas/api-keys';
import { API_KEY_NAME_MAX, API_KEY_SCOPES } from '@cellport/shared/schemas/api-keys-constants';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { dateTime } from '../../../lib/dates';
import { useT } from '../../../lib/i18n';
import { formatUsd, parseMoneyInput } from '../../../lib/money';
import { toast } from '../../../lib/toast';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../api/api-keys';
// The card also sits on the Account page, which does not load the Documentation page's styles.
import '../documentation.css';

/**
 * API keys: create with a name, a scope (read, manage, full) and, for a key that spends, an optional monthly limit
 * (the key is shown once); list with prefix, scope, spending and dates; revoke after confirming.
 */
export function ApiKeysCard({ className = '' }: { className?: string }) {
  const { t, language } = useT(['docs', 'common']);
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const [scope, setScope] = useState<ApiKeyScope>('manage');
  const [limit, setLimit] = useState('');
  const [limitError, setLimitError] = useState<string | undefined>();
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [confirm, setConfirm] = useState<ApiKey | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    setNameError(trimmed ? undefined : t('keys.nameRequired'));
    // Whole cents, as the server keeps it: micro-USD divisible by 10,000.
    const micro = scope === 'full' && limit.trim() ? parseMoneyInput(limit) : null;
    const badLimit = scope === 'full' && limit.trim() !== '' && (micro === null || micro % 10_000n !== 0n);
    setLimitError(badLimit ? t('keys.limitInvalid') : undefined);
    if (!trimmed || badLimit) return;
    create.mutate({ name: trimmed, scope, monthlySpendLimit: micro === null ? null : micro.toString() }, {
      onSuccess: (result) => { setCreated({ name: result.data.name, key: result.key }); setName(''); setLimit(''); },
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
    <section className={`card docs-section ${className}`} aria-labelledby="docs-keys-title">
      <h2 id="docs-keys-title" className="docs-section__title">{t('keys.title')}</h2>
      <p className="docs-section__lead">{t('keys.lead')}</p>
      <form className="docs-keys__form" onSubmit={submit} noValidate>
        <TextField label={t('keys.name')} hint={t('keys.nameHint')} value={name} maxLength={API_KEY_NAME_MAX}
          onChange={(e) => setName(e.target.value)} error={nameError} autoComplete="off" />
        <div className="field">
          <label htmlFor="api-key-scope">{t('keys.scope')}</label>
          <select id="api-key-scope" value={scope} aria-describedby="api-key-scope-hint" onChange={(e) => setScope(e.target.value as ApiKeyScope)}>
            {API_KEY_SCOPES.map((s) => <option key={s} value={s}>{t(`keys.scopes.${s}`)}</option>)}
          </select>
          <p id="api-key-scope-hint" className="field__hint">{t(`keys.scopeHints.${scope}`)}</p>
        </div>
        {scope === 'full' ? (
          <TextField label={t('keys.limit')} hint={t('keys.limitHint')} value={limit} inputMode="decimal"
            onChange={(e) => setLimit(e.target.value)} error={limitError} autoComplete="off" />
        ) : null}
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
              <th scope="col">{t('keys.name')}</th><th scope="col">{t('keys.prefix')}</th><th scope="col">{t('keys.scope')}</th>
              <th scope="col">{t('keys.created')}</th><th scope="col">{t('keys.lastUsed')}</th>
              <th scope="col"><span className="visually-hidden">{t('keys.actions')}</span></th>
            </tr></thead>
            <tbody>
              {keys.data.map((key) => (
                <tr key={key._id}>
                  <td data-label={t('keys.name')}>{key.name}</td>
                  <td data-label={t('keys.prefix')}><code>{key.prefix}…</code></td>
                  <td data-label={t('keys.scope')}>
                    {t(`keys.scopes.${key.scope}`)}
                    {key.monthlySpendLimit !== null ? (
                      <span className="docs-muted docs-keys__spent">
                        {t('keys.spent', { spent: formatUsd(key.spentThisMonth), limit: formatUsd(key.monthlySpendLimit) })}
                      </span>
                    ) : null}
                  </td>
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
