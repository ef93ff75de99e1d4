import type { OperatorAlertSettings, OperatorAlertSettingsPatch } from '@cellport/shared/schemas/admin/alerts';
import { useEffect, useState } from 'react';
import { useT } from '../../../lib/i18n';
import { updateAlertSettings, useAlertSettings } from '../api/alerts';
import { useAdminMutation } from '../api/use-admin-mutation';
import { QueryView } from './query-view';

/**
 * "My alerts" (issue 28, item 8): the farm's alerts (modems down and back, ports waiting for a free modem, customers'
 * webhooks given up) are always in this console's bell; each operator chooses e-mail and Telegram for themselves.
 */
export function AlertSettings() {
  const { t } = useT('admin');
  const settings = useAlertSettings();
  return (
    <section className="card admin-section" aria-labelledby="settings-alerts">
      <h2 id="settings-alerts">{t('alerts.title')}</h2>
      <p className="admin-muted">{t('alerts.lead')}</p>
      <QueryView query={settings}>{(data) => <AlertChannels data={data} />}</QueryView>
    </section>
  );
}

function AlertChannels({ data }: { data: OperatorAlertSettings }) {
  const { t } = useT('admin');
  // Shown as chosen at once; the saved answer (or the refetch after a failure) puts it right.
  const [chosen, setChosen] = useState({ email: data.email, telegram: data.telegram });
  useEffect(() => { setChosen({ email: data.email, telegram: data.telegram }); }, [data.email, data.telegram]);
  const save = useAdminMutation(updateAlertSettings, { successKey: 'alerts.saved' });
  const choose = (patch: OperatorAlertSettingsPatch) => { setChosen((c) => ({ ...c, ...patch })); save.mutate(patch); };
  return (
    <fieldset className="admin-alerts" disabled={save.isPending}>
      <legend className="visually-hidden">{t('alerts.channels')}</legend>
      <label className="admin-alerts__choice">
        <input type="checkbox" checked={chosen.email} onChange={(e) => choose({ email: e.target.checked })} />
        {t('alerts.email')}
      </label>
      <label className="admin-alerts__choice">
        <input type="checkbox" checked={chosen.telegram} aria-describedby="alerts-telegram-hint" onChange={(e) => choose({ telegram: e.target.checked })} />
        {t('alerts.telegram')}
      </label>
      <p id="alerts-telegram-hint" className="admin-muted">{data.telegramLinked ? t('alerts.telegramLinked') : t('alerts.telegramNotLinked')}</p>
    </fieldset>
  );
}
