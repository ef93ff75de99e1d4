import type { AdminSettingsResponse } from '@cellport/shared/schemas/admin/settings';
import { REPLACEMENT_LIMITS } from '@cellport/shared/schemas/replacement';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n';
import { updateSettings, useAdminSettings } from '../api/settings';
import { useAdminMutation } from '../api/use-admin-mutation';
import { PageTitle } from '../components/page-title';
import { QueryView } from '../components/query-view';
import { StatusBadge } from '../components/status-badge';
import { AlertSettings } from '../components/alert-settings';
import { TelegramSettings } from '../components/telegram-settings';

/** Provider modes and whether each key is set (never a secret); the PayPal receiver and documentation URL are editable. */
export function SettingsPage() {
  const { t } = useT('admin');
  const settings = useAdminSettings();
  return (
    <>
      <PageTitle title={t('nav.settings')} description={t('settings.description')} />
      <AlertSettings />
      <QueryView query={settings}>{(data) => <SettingsView data={data} />}</QueryView>
      <TelegramSettings />
    </>
  );
}

function SettingsView({ data }: { data: AdminSettingsResponse }) {
  const { t } = useT('admin');
  const [docUrl, setDocUrl] = useState(data.documentationUrl ?? '');
  const [receiver, setReceiver] = useState(data.paypal.receiverOverridden ? data.paypal.receiverEmail : '');
  const [afterMinutes, setAfterMinutes] = useState(String(data.replacementAfterMinutes));
  // The seller printed on every invoice and receipt (issue 27, item 3).
  const [seller, setSeller] = useState(data.seller);
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    setDocUrl(data.documentationUrl ?? ''); setReceiver(data.paypal.receiverOverridden ? data.paypal.receiverEmail : '');
    setAfterMinutes(String(data.replacementAfterMinutes));
    setSeller(data.seller);
  }, [data]);
  const save = useAdminMutation(updateSettings, { successKey: 'settings.saved' });
  const urlOk = !docUrl.trim() || /^https?:\/\/[^\s]+$/.test(docUrl.trim());
  const emailOk = !receiver.trim() || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(receiver.trim());
  const minutes = Number(afterMinutes.trim().replace(',', '.'));
  const minutesOk = afterMinutes.trim() !== '' && Number.isFinite(minutes)
    && minutes >= REPLACEMENT_LIMITS.afterMinutesMin && minutes <= REPLACEMENT_LIMITS.afterMinutesMax;
  const isSet = (value: boolean) => (value ? <StatusBadge tone="ok">{t('settings.set')}</StatusBadge> : <StatusBadge tone="neutral">{t('settings.notSet')}</StatusBadge>);
  return (
    <>
      <section className="card admin-section" aria-labelledby="settings-providers">
        <h2 id="settings-providers">{t('settings.providers')}</h2>
        <dl className="admin-dl">
          <dt>{t('settings.card')}</dt><dd>{t(`settings.modes.${data.card.mode}`)}</dd>
          <dt>{t('settings.cardSecret')}</dt><dd>{isSet(data.card.secretKeySet)}</dd>
          <dt>{t('settings.cardPublishable')}</dt><dd>{isSet(data.card.publishableKeySet)}</dd>
          <dt>{t('settings.cardWebhook')}</dt><dd>{isSet(data.card.webhookSecretSet)}</dd>
          <dt>{t('settings.paypal')}</dt><dd>{t(`settings.modes.${data.paypal.mode}`)}</dd>
          {/* The server's effective receiver (console override, else the configured one): what checkout and IPNs use. */}
          <dt>{t('settings.paypalReceiverInUse')}</dt><dd>{data.paypal.mode === 'off' ? '—' : data.paypal.receiverEmail || '—'}</dd>
          <dt>{t('settings.btcXpub')}</dt><dd>{isSet(data.btc.xpubSet)}{data.btc.sandboxKey ? <> <StatusBadge tone="warn">{t('settings.sandboxKey')}</StatusBadge></> : null}</dd>
          <dt>{t('settings.usdtXpub')}</dt><dd>{isSet(data.usdt.xpubSet)}{data.usdt.sandboxKey ? <> <StatusBadge tone="warn">{t('settings.sandboxKey')}</StatusBadge></> : null}</dd>
          <dt>{t('settings.usdtApiKey')}</dt><dd>{isSet(data.usdt.apiKeySet)}</dd>
          <dt>{t('settings.captcha')}</dt><dd>{t(`settings.modes.${data.captcha.provider}`)}</dd>
          <dt>{t('settings.captchaKeys')}</dt><dd>{isSet(data.captcha.siteKeySet && data.captcha.secretKeySet)}</dd>
          <dt>{t('settings.smtp')}</dt><dd>{isSet(data.smtpSet)}</dd>
        </dl>
        <p className="admin-muted">{t('settings.envHint')}</p>
      </section>
      <form
        className="card admin-section"
        aria-labelledby="settings-editable"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (!urlOk || !emailOk || !minutesOk) return;
          save.mutate({
            documentationUrl: docUrl.trim() || null, paypalReceiverEmail: receiver.trim() || null, replacementAfterMinutes: minutes,
            sellerName: seller.name.trim() || null, sellerAddress: seller.address.trim() || null, sellerTaxId: seller.taxId.trim() || null,
          });
        }}
      >
        <h2 id="settings-editable">{t('settings.editable')}</h2>
        <TextField label={t('settings.paypalReceiver')} type="email" value={receiver} onChange={(e) => setReceiver(e.target.value)}
          hint={t('settings.paypalReceiverHint', { email: data.paypal.receiverOverridden ? '' : data.paypal.receiverEmail || '—' })}
          error={touched && !emailOk ? t('settings.emailError') : undefined} />
        <TextField label={t('settings.documentationUrl')} type="url" value={docUrl} onChange={(e) => setDocUrl(e.target.value)}
          hint={t('settings.documentationUrlHint')} error={touched && !urlOk ? t('settings.urlError') : undefined} />
        <TextField label={t('settings.replacementAfter')} inputMode="decimal" value={afterMinutes} onChange={(e) => setAfterMinutes(e.target.value)}
          hint={t('settings.replacementAfterHint')} error={touched && !minutesOk ? t('settings.minutesError') : undefined} />
        <fieldset className="admin-fieldset">
          <legend>{t('settings.sellerTitle')}</legend>
          <p className="admin-muted">{t('settings.sellerHint')}</p>
          <TextField label={t('settings.sellerName')} value={seller.name} maxLength={200} autoComplete="organization"
            onChange={(e) => setSeller((s) => ({ ...s, name: e.target.value }))} />
          <TextField label={t('settings.sellerAddress')} value={seller.address} maxLength={500}
            onChange={(e) => setSeller((s) => ({ ...s, address: e.target.value }))} />
          <TextField label={t('settings.sellerTaxId')} value={seller.taxId} maxLength={60}
            onChange={(e) => setSeller((s) => ({ ...s, taxId: e.target.value }))} />
        </fieldset>
        <Button type="submit" busy={save.isPending}>{t('actions.save')}</Button>
      </form>
    </>
  );
}
