import { LANGUAGES, type Language } from '@cellport/shared/constants';
import { ADMIN_LIMITS } from '@cellport/shared/schemas/admin/common';
import { type CustomerSummary } from '@cellport/shared/schemas/admin/customers';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n';
import { useCustomers } from '../api/customers';
import { sendNotification } from '../api/notifications';
import { useAdminMutation } from '../api/use-admin-mutation';
import { ConfirmDialog } from '../components/confirm-dialog';
import { PageTitle } from '../components/page-title';
import { SearchBox } from '../components/search-box';

type Texts = Record<Language, string>;

/** A message to one customer (found by search) or to everyone, written in en, ru and cn. */
export function NotificationsPage() {
  const { t } = useT(['admin', 'common']);
  const [audience, setAudience] = useState<'one' | 'all'>('one');
  const [q, setQ] = useState('');
  const [recipient, setRecipient] = useState<CustomerSummary | null>(null);
  const [texts, setTexts] = useState<Texts>({ en: '', ru: '', cn: '' });
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const found = useCustomers(q, 1, 10);
  const send = useAdminMutation(sendNotification, {
    onSuccess: () => { setConfirming(false); setTexts({ en: '', ru: '', cn: '' }); setTouched(false); },
    successKey: 'notifications.sent',
  });
  const textsOk = LANGUAGES.every((lng) => texts[lng].trim().length > 0);
  const recipientOk = audience === 'all' || recipient !== null;
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (textsOk && recipientOk) setConfirming(true);
  };
  return (
    <>
      <PageTitle title={t('nav.notifications')} description={t('notifications.description')} />
      <form className="card admin-section" onSubmit={submit} noValidate>
        <fieldset className="admin-fieldset">
          <legend>{t('notifications.to')}</legend>
          <label className="admin-check"><input type="radio" name="audience" checked={audience === 'one'} onChange={() => setAudience('one')} /> {t('notifications.oneCustomer')}</label>
          <label className="admin-check"><input type="radio" name="audience" checked={audience === 'all'} onChange={() => setAudience('all')} /> {t('notifications.everyone')}</label>
        </fieldset>
        {audience === 'one' ? (
          <div className="admin-recipient">
            <SearchBox label={t('notifications.findCustomer')} value={q} onSearch={setQ} />
            {recipient ? <p>{t('notifications.recipient')} <strong>{recipient.email}</strong> <Button size="sm" variant="link" onClick={() => setRecipient(null)}>{t('notifications.change')}</Button></p> : (
              <fieldset className="admin-fieldset">
                <legend>{t('notifications.pick')}</legend>
                {found.isPending ? <p className="admin-muted">{t('loading')}</p> : null}
                {found.data?.items.length === 0 ? <p className="admin-muted">{t('customers.noMatch')}</p> : null}
                {found.data?.items.map((c) => (
                  <label key={c.id} className="admin-check">
                    <input type="radio" name="recipient" onChange={() => setRecipient(c)} /> {c.email}{c.name ? <span className="admin-muted"> · {c.name}</span> : null}
                  </label>
                ))}
                {touched && !recipient ? <p className="field__error" role="alert">{t('notifications.pickError')}</p> : null}
              </fieldset>
            )}
          </div>
        ) : null}
        <fieldset className="admin-fieldset">
          <legend>{t('notifications.text')}</legend>
          {LANGUAGES.map((lng) => (
            <div className="field" key={lng}>
              <label htmlFor={`notification-${lng}`}>{t(`common:languages.${lng}`)}</label>
              <textarea id={`notification-${lng}`} lang={lng === 'cn' ? 'zh-CN' : lng} rows={3} maxLength={ADMIN_LIMITS.notificationMax} value={texts[lng]}
                onChange={(e) => setTexts((v) => ({ ...v, [lng]: e.target.value }))}
                aria-invalid={touched && !texts[lng].trim() ? true : undefined} aria-describedby={touched && !texts[lng].trim() ? `notification-${lng}-error` : undefined} />
              {touched && !texts[lng].trim() ? <p id={`notification-${lng}-error`} className="field__error" role="alert">{t('required')}</p> : null}
            </div>
          ))}
        </fieldset>
        <Button type="submit">{t('notifications.send')}</Button>
      </form>
      <ConfirmDialog
        open={confirming}
        title={t('notifications.confirmTitle')}
        description={audience === 'all' ? t('notifications.confirmAll') : t('notifications.confirmOne', { email: recipient?.email ?? '' })}
        confirmLabel={t('notifications.send')}
        busy={send.isPending}
        onConfirm={() => send.mutate({ to: audience === 'all' ? 'all' : recipient!.id, text: { en: texts.en.trim(), ru: texts.ru.trim(), cn: texts.cn.trim() } })}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
