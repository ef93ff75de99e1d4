import { FINGERPRINT_PRESET_IDS, type FingerprintPresetId } from '@cellport/shared/fingerprint-preset-ids';
import type { Port } from '@cellport/shared/schemas/catalog';
import type { FingerprintCheckResponse } from '@cellport/shared/schemas/fingerprint';
import { useId } from 'react';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { errorText } from '../../../lib/translate-api-error';
import { useFingerprintCheck } from '../api/check-fingerprint';
import { useUpdatePort } from '../api/update-port';

/**
 * The port's OS fingerprint (issue 30): the active preset in the summary; inside, the choice (saved at once; not
 * offered, with the host's reason, when its server cannot apply presets), why a preset failed if it did, and "what a
 * site sees": a check through the port to the fingerprint echo, row by row against the preset.
 */
export function FingerprintDetails({ port }: { port: Port }) {
  const { t } = useT(['proxies', 'errors']);
  const update = useUpdatePort();
  const check = useFingerprintCheck(port._id);
  const selectId = useId();
  const fp = port.fingerprint;
  const name = (id: FingerprintPresetId) => t(`fingerprint.presets.${id}.name`);
  const choose = (value: string) => update.mutate(
    { id: port._id, patch: { fingerprint: value === '' ? null : (value as FingerprintPresetId) } },
    {
      onSuccess: (p) => { check.reset(); toast.success(t('fingerprint.saved', { preset: name(p.fingerprint.active) })); },
      onError: (error) => toast.error(errorText(t, error)),
    },
  );

  return (
    <details className="px-try px-fp" data-testid="port-fingerprint">
      <summary className="px-try__summary">
        {t('fingerprint.summary')}: <span data-testid="port-fingerprint-active">{name(fp.active)}</span>
      </summary>
      <div className="px-try__body">
        <p className="px-try__text">{t('fingerprint.help')}</p>
        {fp.failing ? (
          <p className="px-try__note" role="alert" data-testid="port-fingerprint-failing">
            {t('fingerprint.failing')} {t('fingerprint.failingReason', { reason: fp.failing })}
          </p>
        ) : null}
        {fp.available ? (
          <div className="px-interval">
            <label htmlFor={selectId}>{t('fingerprint.label')}</label>
            <select id={selectId} value={fp.preset ?? ''} disabled={update.isPending} onChange={(e) => choose(e.target.value)} data-testid="port-fingerprint-select">
              <option value="">{t('fingerprint.followDefault')}</option>
              {FINGERPRINT_PRESET_IDS.map((id) => <option key={id} value={id}>{name(id)}</option>)}
            </select>
          </div>
        ) : (
          <p className="px-try__note" role="note" data-testid="port-fingerprint-unavailable">
            {t('fingerprint.unavailable')}{fp.unavailableReason ? ` ${t('fingerprint.unavailableReason', { reason: fp.unavailableReason })}` : ''}
          </p>
        )}
        <p className="px-try__text">{t(`fingerprint.source.${fp.source}`)} {t(`fingerprint.presets.${fp.active}.description`)}</p>
        <div>
          <Button variant="secondary" size="sm" busy={check.isPending} onClick={() => check.mutate()} data-testid="port-fingerprint-check">
            {check.isPending ? t('fingerprint.check.running') : t('fingerprint.check.button')}
          </Button>
        </div>
        {check.isError ? <p className="px-try__note" role="alert" data-testid="port-fingerprint-error">{errorText(t, check.error)}</p> : null}
        {check.data ? <CheckResult result={check.data} /> : null}
      </div>
    </details>
  );
}

function CheckResult({ result }: { result: FingerprintCheckResponse }) {
  const { t } = useT('proxies');
  const preset = t(`fingerprint.presets.${result.preset}.name`);
  return (
    <div className="px-fp__result" data-testid="port-fingerprint-result">
      <p className={`px-fp__verdict px-fp__verdict--${result.matches ? 'ok' : 'bad'}`} role="status">
        {result.matches ? t('fingerprint.check.matches', { preset }) : t('fingerprint.check.differs', { preset })}
      </p>
      <p className="px-try__text">{t('fingerprint.check.intro')} {t('fingerprint.check.from', { ip: result.seen.ip })}</p>
      {/* Focusable so a keyboard can scroll it sideways on a narrow screen. */}
      <div className="px-fp__scroll" role="region" aria-label={t('fingerprint.check.button')} tabIndex={0}>
        <table className="px-fp__table">
          <thead>
            <tr>
              <th scope="col">{t('fingerprint.check.field')}</th>
              <th scope="col">{t('fingerprint.check.expected')}</th>
              <th scope="col">{t('fingerprint.check.seen')}</th>
              <th scope="col">{t('fingerprint.check.verdict')}</th>
            </tr>
          </thead>
          <tbody>
            {result.fields.map((f) => (
              <tr key={f.field} data-testid={`port-fingerprint-row-${f.field}`}>
                <th scope="row">{t(`fingerprint.check.fields.${f.field}`)}</th>
                <td><code>{f.expected}</code></td>
                <td><code>{f.seen}</code></td>
                <td className={`px-fp__mark px-fp__mark--${!f.decisive ? 'info' : f.matches ? 'ok' : 'bad'}`}>
                  {!f.decisive ? t('fingerprint.check.info') : f.matches ? t('fingerprint.check.ok') : t('fingerprint.check.bad')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
