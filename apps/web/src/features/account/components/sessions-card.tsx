import type { SessionInfo } from '@cellport/shared/schemas/account';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { htmlLang, useT } from '../../../lib/i18n';
import { useLanguage } from '../../../lib/language';
import { toast } from '../../../lib/toast';
import { useEndOtherSessions, useEndSession, useSessions, useSignOutEverywhere } from '../api/sessions';
import { errorText } from '../lib/form-text';
import { describeUserAgent } from '../lib/user-agent';

/** Where the account is signed in: one row per session, this device marked; end one or all the others. */
export function SessionsCard() {
  const { t } = useT(['account', 'common', 'errors']);
  const language = useLanguage();
  const sessions = useSessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const [confirming, setConfirming] = useState(false);
  const everywhere = useSignOutEverywhere();
  const [leaving, setLeaving] = useState(false);
  const [revokeAccess, setRevokeAccess] = useState(true);
  const dates = new Intl.DateTimeFormat(htmlLang(language), { dateStyle: 'medium', timeStyle: 'short' });
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;

  const device = (s: SessionInfo) => {
    const { browser, os } = describeUserAgent(s.userAgent);
    if (browser && os) return t('sessions.browserOn', { browser, os });
    return browser ?? os ?? t('sessions.unknownDevice');
  };

  return (
    <section className="card account-card account-card--wide" aria-labelledby="account-sessions-title">
      <header className="account-card__header account-card__header--row">
        <div>
          <h2 id="account-sessions-title">{t('sessions.title')}</h2>
          <p>{t('sessions.description')}</p>
        </div>
        <div className="account-card__actions">
          <Button variant="secondary" disabled={others === 0} onClick={() => setConfirming(true)}>{t('sessions.endOthers')}</Button>
          <Button variant="secondary" onClick={() => setLeaving(true)}>{t('sessions.everywhere')}</Button>
        </div>
      </header>

      {sessions.isPending ? (
        <div className="account-card__loading"><Spinner label={t('common:loading')} /></div>
      ) : sessions.isError ? (
        <div className="account-card__error" role="alert">
          <p>{errorText(t, sessions.error)}</p>
          <Button variant="secondary" size="sm" onClick={() => void sessions.refetch()}>{t('common:actions.retry')}</Button>
        </div>
      ) : (
        <ul className="session-list">
          {sessions.data.map((s) => (
            <li key={s.id} className="session">
              <div className="session__main">
                <p className="session__device">
                  {device(s)}
                  {s.current ? <span className="badge badge--success">{t('sessions.thisDevice')}</span> : null}
                </p>
                <dl className="session__meta">
                  <div><dt>{t('sessions.ip')}</dt><dd>{s.ip || '—'}</dd></div>
                  <div><dt>{t('sessions.created')}</dt><dd><time dateTime={s.createdAt}>{dates.format(new Date(s.createdAt))}</time></dd></div>
                  <div><dt>{t('sessions.lastSeen')}</dt><dd><time dateTime={s.lastSeenAt}>{dates.format(new Date(s.lastSeenAt))}</time></dd></div>
                </dl>
              </div>
              {s.current ? null : (
                <Button variant="secondary" size="sm" busy={endOne.isPending && endOne.variables === s.id}
                  aria-label={t('sessions.endOneLabel', { device: device(s) })}
                  onClick={() => endOne.mutate(s.id, {
                    onSuccess: () => toast.success(t('sessions.ended')),
                    onError: (e) => toast.error(errorText(t, e)),
                  })}>
                  {t('sessions.endOne')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}

      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        size="sm"
        title={t('sessions.confirmTitle')}
        description={t('sessions.confirmText', { n: others })}
        footer={<>
          <Button variant="secondary" onClick={() => setConfirming(false)}>{t('common:actions.cancel')}</Button>
          <Button variant="danger" busy={endOthers.isPending} onClick={() => endOthers.mutate(undefined, {
            onSuccess: () => { setConfirming(false); toast.success(t('sessions.endedOthers')); },
            onError: (e) => toast.error(errorText(t, e)),
          })}>{t('sessions.endOthers')}</Button>
        </>}
      />

      <Dialog
        open={leaving}
        onClose={() => setLeaving(false)}
        size="sm"
        title={t('sessions.everywhereTitle')}
        description={t('sessions.everywhereText')}
        footer={<>
          <Button variant="secondary" onClick={() => setLeaving(false)}>{t('common:actions.cancel')}</Button>
          <Button variant="danger" busy={everywhere.isPending} onClick={() => everywhere.mutate(revokeAccess, {
            // Signed out here too: the sign-in page, as after signing out.
            onSuccess: () => { location.assign(`/${language}/sign-in`); },
            onError: (e) => toast.error(errorText(t, e)),
          })}>{t('sessions.everywhere')}</Button>
        </>}
      >
        <label className="account-check">
          <input type="checkbox" checked={revokeAccess} onChange={(e) => setRevokeAccess(e.target.checked)} />
          {t('sessions.everywhereRevoke')}
        </label>
      </Dialog>
    </section>
  );
}
