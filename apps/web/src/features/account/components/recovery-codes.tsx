import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { useRegenerateRecoveryCodes } from '../api/two-factor';
import { errorText } from '../lib/form-text';

/**
 * The recovery codes, the one time they are shown (issue 27, item 5): a list to copy or download, and a button to
 * say they are saved, which is the only way the panel closes (they cannot be shown again).
 */
export function RecoveryCodesPanel({ codes, email, onSaved }: { codes: string[]; email: string; onSaved: () => void }) {
  const { t } = useT(['account', 'common']);
  const asText = [t('recoveryCodes.fileHeader', { email }), '', ...codes, ''].join('\n');

  function download() {
    const url = URL.createObjectURL(new Blob([asText], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'cellport-recovery-codes.txt';
    document.body.appendChild(link);
    link.click();
    link.remove();
    URL.revokeObjectURL(url);
  }

  return (
    <div className="recovery-codes" role="region" aria-labelledby="recovery-codes-title">
      <h3 id="recovery-codes-title" className="recovery-codes__title">{t('recoveryCodes.title')}</h3>
      <p className="recovery-codes__lead">{t('recoveryCodes.savePrompt')}</p>
      <ol className="recovery-codes__list" aria-label={t('recoveryCodes.listLabel')}>
        {codes.map((code) => <li key={code}><code>{code}</code></li>)}
      </ol>
      <div className="account-card__actions account-card__actions--start">
        <CopyButton value={codes.join('\n')} label={t('recoveryCodes.copy')} />
        <Button variant="secondary" size="sm" onClick={download}>{t('recoveryCodes.download')}</Button>
        <Button size="sm" onClick={onSaved}>{t('recoveryCodes.saved')}</Button>
      </div>
    </div>
  );
}

/** How many codes are left, and a new set made with the password or an app code (the old set stops working). */
export function RecoveryCodesStatus({ left, onNewCodes }: { left: number; onNewCodes: (codes: string[]) => void }) {
  const { t } = useT(['account', 'common', 'validation', 'errors']);
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const regenerate = useRegenerateRecoveryCodes();

  function submit(event: FormEvent) {
    event.preventDefault();
    const proof = password ? { password } : code.trim() ? { code: code.replace(/\s+/g, '') } : null;
    if (!proof) return setError(t('recoveryCodes.proofNeeded'));
    setError(undefined);
    regenerate.mutate(proof, {
      onSuccess: ({ recoveryCodes }) => {
        setOpen(false); setPassword(''); setCode('');
        toast.success(t('recoveryCodes.made'));
        onNewCodes(recoveryCodes);
      },
      onError: (e) => setError(errorText(t, e)),
    });
  }

  return (
    <div className="recovery-codes-status">
      <p className={left <= 2 ? 'recovery-codes-status__left recovery-codes-status__left--low' : 'recovery-codes-status__left'}>
        {t('recoveryCodes.left', { count: left })}
        {left <= 2 && <> {t('recoveryCodes.low')}</>}
      </p>
      {open ? (
        <form className="recovery-codes-form" onSubmit={submit} noValidate aria-label={t('recoveryCodes.regenerate')}>
          <p className="recovery-codes__lead">{t('recoveryCodes.regenerateLead')}</p>
          <TextField label={t('recoveryCodes.password')} name="password" type="password" autoComplete="current-password"
            value={password} onChange={(e) => setPassword(e.target.value)} autoFocus />
          <TextField label={t('recoveryCodes.appCode')} name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={7}
            value={code} onChange={(e) => setCode(e.target.value)} className="two-factor-code__input" />
          {error && <p className="field__error" role="alert">{error}</p>}
          <div className="account-card__actions account-card__actions--start">
            <Button type="submit" busy={regenerate.isPending}>{t('recoveryCodes.regenerate')}</Button>
            <Button variant="ghost" onClick={() => { setOpen(false); setError(undefined); }}>{t('common:actions.cancel')}</Button>
          </div>
        </form>
      ) : (
        <div className="account-card__actions account-card__actions--start">
          <Button variant="secondary" onClick={() => setOpen(true)}>{t('recoveryCodes.regenerate')}</Button>
        </div>
      )}
    </div>
  );
}
