import type { Me, TwoFactorEnabled, TwoFactorSetup } from '@cellport/shared/schemas/account';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { useStartTwoFactor, useTwoFactorCode } from '../api/two-factor';
import { errorText, fieldErrors } from '../lib/form-text';
import { loadAccountChecks, preloadAccountChecks } from '../lib/load-account-checks';
import { RecoveryCodesPanel, RecoveryCodesStatus } from './recovery-codes';

/** Two-factor sign-in with an authenticator app: set up (QR code + secret, confirmed by a code) or turn off. */
export function TwoFactorCard({ me }: { me: Me }) {
  const { t } = useT(['account', 'common', 'validation', 'errors']);
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [disabling, setDisabling] = useState(false);
  // Recovery codes just made (on turning two-factor on, or a new set): shown until the person says they saved them.
  const [codes, setCodes] = useState<string[] | null>(null);
  const start = useStartTwoFactor();

  function begin() {
    start.mutate(undefined, { onSuccess: setSetup, onError: (error) => toast.error(errorText(t, error)) });
  }

  return (
    <section className="card account-card" aria-labelledby="account-2fa-title">
      <header className="account-card__header">
        <h2 id="account-2fa-title" className="account-card__title-with-badge">
          {t('twoFactor.title')}
          <span className={`badge ${me.use2fa ? 'badge--success' : 'badge--neutral'}`}>
            {me.use2fa ? t('twoFactor.on') : t('twoFactor.off')}
          </span>
        </h2>
        <p>{t('twoFactor.description')}</p>
      </header>

      {me.use2fa && codes ? (
        <RecoveryCodesPanel codes={codes} email={me.email} onSaved={() => setCodes(null)} />
      ) : me.use2fa ? (
        disabling ? (
          <CodeForm action="disable" label={t('twoFactor.disableCode')} submit={t('twoFactor.disable')} danger
            onDone={() => { setDisabling(false); toast.success(t('twoFactor.disabled')); }} onCancel={() => setDisabling(false)} />
        ) : (
          <>
            <RecoveryCodesStatus left={me.recoveryCodesLeft} onNewCodes={setCodes} />
            <div className="account-card__actions account-card__actions--start">
              <Button variant="secondary" onClick={() => setDisabling(true)}>{t('twoFactor.turnOff')}</Button>
            </div>
          </>
        )
      ) : setup ? (
        <div className="two-factor-setup">
          <ol className="two-factor-setup__steps">
            <li>
              <p>{t('twoFactor.scan')}</p>
              <img className="two-factor-setup__qr" width={180} height={180} alt={t('twoFactor.qrAlt')}
                src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`} />
            </li>
            <li>
              <p>{t('twoFactor.manual')}</p>
              <div className="two-factor-setup__secret">
                <code aria-label={t('twoFactor.secret')}>{setup.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
                <CopyButton value={setup.secret} />
              </div>
            </li>
            <li>
              <CodeForm action="enable" label={t('twoFactor.confirmCode')} submit={t('twoFactor.enable')}
                onDone={(answer) => {
                  setSetup(null);
                  setCodes((answer as TwoFactorEnabled).recoveryCodes);
                  toast.success(t('twoFactor.enabled'));
                }} onCancel={() => setSetup(null)} />
            </li>
          </ol>
        </div>
      ) : (
        <div className="account-card__actions account-card__actions--start">
          <Button onClick={begin} busy={start.isPending}>{t('twoFactor.setUp')}</Button>
        </div>
      )}
    </section>
  );
}

interface CodeFormProps {
  action: 'enable' | 'disable';
  label: string;
  submit: string;
  danger?: boolean;
  onDone: (answer: Me | TwoFactorEnabled) => void;
  onCancel: () => void;
}

function CodeForm({ action, label, submit, danger, onDone, onCancel }: CodeFormProps) {
  const { t } = useT(['account', 'common', 'validation', 'errors']);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const mutation = useTwoFactorCode(action);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    let checks;
    try { checks = await loadAccountChecks(); } catch { return setError(t('errors:NETWORK')); }
    // Turning it off also takes a recovery code: the phone may be what was lost.
    const parsed = checks.checkTwoFactorCode(action, code.replace(/\s+/g, ''));
    if (!parsed.success) return setError(fieldErrors(t, parsed.error.issues).code);
    setError(undefined);
    mutation.mutate(parsed.data.code, {
      onSuccess: onDone,
      onError: (e) => { setError(errorText(t, e)); setCode(''); },
    });
  }

  return (
    <form className="two-factor-code" onSubmit={onSubmit} onFocus={preloadAccountChecks} noValidate>
      <TextField label={label} name="code" inputMode={action === 'enable' ? 'numeric' : 'text'} autoComplete="one-time-code"
        maxLength={action === 'enable' ? 7 : 12}
        value={code} onChange={(e) => setCode(e.target.value)} error={error} className="two-factor-code__input" autoFocus required />
      <div className="account-card__actions account-card__actions--start">
        <Button type="submit" variant={danger ? 'danger' : 'primary'} busy={mutation.isPending}>{submit}</Button>
        <Button variant="ghost" onClick={onCancel}>{t('common:actions.cancel')}</Button>
      </div>
    </form>
  );
}
