import './webhooks-card.css';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_URL_MAX, type WebhookEventType } from '@cellport/shared/schemas/webhooks-constants';
import type { WebhookEndpoint } from '@cellport/shared/schemas/webhooks';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { dateTime } from '../../../lib/dates';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import {
  useCreateWebhook, useDeleteWebhook, useQueueDelivery, useUpdateWebhook, useWebhookDeliveries, useWebhooks,
} from '../api/webhooks';
import { errorText } from '../lib/form-text';

const validUrl = (value: string) => {
  try { const u = new URL(value); return u.protocol === 'https:' || u.protocol === 'http:'; } catch { return false; }
};

/** Webhooks (issue 16): add an endpoint (URL, events; the secret shown once), turn it on or off, test, read its log. */
export function WebhooksCard() {
  const { t } = useT(['webhooks', 'common', 'errors', 'validation']);
  const endpoints = useWebhooks();
  const create = useCreateWebhook();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['port.bought', 'port.rotated']);
  const [errors, setErrors] = useState<{ url?: string; events?: string }>({});
  const [secret, setSecret] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = { url: validUrl(url.trim()) ? undefined : t('urlInvalid'), events: events.length ? undefined : t('eventsRequired') };
    setErrors(next);
    if (next.url || next.events) return;
    create.mutate({ url: url.trim(), eventTypes: events }, {
      onSuccess: (result) => { setSecret(result.secret); setUrl(''); },
      onError: (error) => toast.error(t('createFailed', { reason: errorText(t, error) })),
    });
  };
  const toggle = (type: WebhookEventType) =>
    setEvents((list) => (list.includes(type) ? list.filter((x) => x !== type) : [...list, type]));

  return (
    <section className="card account-card account-card--wide" aria-labelledby="account-webhooks-title">
      <header className="account-card__header">
        <h2 id="account-webhooks-title">{t('title')}</h2>
        <p>{t('description')}</p>
      </header>
      <form className="webhooks__form" onSubmit={submit} noValidate>
        <TextField label={t('url')} hint={t('urlHint')} value={url} maxLength={WEBHOOK_URL_MAX} type="url"
          placeholder="https://example.com/webhooks/cellport" onChange={(e) => setUrl(e.target.value)} error={errors.url} autoComplete="off" />
        <fieldset className="webhooks__events">
          <legend className="account-card__label">{t('events')}</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="webhooks__event">
              <input type="checkbox" checked={events.includes(type)} onChange={() => toggle(type)} /> {t(`event.${type}`)}
            </label>
          ))}
          {errors.events ? <p className="field__error" role="alert">{errors.events}</p> : null}
        </fieldset>
        <div className="account-card__actions account-card__actions--start">
          <Button type="submit" busy={create.isPending}>{t('add')}</Button>
        </div>
      </form>

      {endpoints.isPending ? <div className="account-card__loading"><Spinner label={t('common:loading')} /></div> : endpoints.isError ? (
        <p role="alert">{t('loadFailed')} <Button variant="link" size="sm" onClick={() => void endpoints.refetch()}>{t('common:actions.retry')}</Button></p>
      ) : endpoints.data.length === 0 ? <p className="webhooks__muted">{t('empty')}</p> : (
        <ul className="webhooks__list">{endpoints.data.map((e) => <EndpointItem key={e._id} endpoint={e} />)}</ul>
      )}

      <Dialog open={secret !== null} onClose={() => setSecret(null)} title={t('createdTitle')} description={t('createdText')}
        footer={<Button onClick={() => setSecret(null)}>{t('done')}</Button>}>
        <div className="webhooks__secret">
          <code data-testid="webhook-secret">{secret}</code>
          <CopyButton value={secret ?? ''} />
        </div>
      </Dialog>
    </section>
  );
}

function EndpointItem({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useT(['webhooks', 'common', 'errors', 'validation']);
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const queue = useQueueDelivery();
  const [showLog, setShowLog] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const failed = (error: unknown) => toast.error(t('actionFailed', { reason: errorText(t, error) }));

  return (
    <li className="webhooks__endpoint">
      <div className="webhooks__endpoint-head">
        <div>
          <code className="webhooks__url">{endpoint.url}</code>
          <span className={`badge ${endpoint.enabled ? 'badge--success' : 'badge--neutral'}`}>{endpoint.enabled ? t('enabled') : t('disabled')}</span>
          <p className="webhooks__muted">{endpoint.eventTypes.map((type) => t(`event.${type}`)).join(' · ')}</p>
          {endpoint.disabledReason ? <p className="webhooks__warning">{t('disabledBecause', { reason: endpoint.disabledReason })}</p> : null}
        </div>
        <div className="account-card__actions">
          <Button variant="secondary" size="sm" busy={queue.isPending && !queue.variables?.deliveryId}
            onClick={() => queue.mutate({ id: endpoint._id }, { onSuccess: () => { toast.success(t('testQueued')); setShowLog(true); }, onError: failed })}>
            {t('sendTest')}
          </Button>
          <Button variant="secondary" size="sm" onClick={() => setShowLog((v) => !v)} aria-expanded={showLog}>{showLog ? t('hideLog') : t('showLog')}</Button>
          <Button variant="secondary" size="sm" busy={update.isPending}
            onClick={() => update.mutate({ id: endpoint._id, enabled: !endpoint.enabled }, { onSuccess: () => toast.success(t('updated')), onError: failed })}>
            {endpoint.enabled ? t('disable') : t('enable')}
          </Button>
          <Button variant="danger" size="sm" onClick={() => setConfirm(true)}>{t('delete')}</Button>
        </div>
      </div>
      {showLog ? <DeliveryLog endpointId={endpoint._id} /> : null}
      <Dialog open={confirm} onClose={() => setConfirm(false)} size="sm" title={t('confirmDeleteTitle')}
        description={t('confirmDeleteText', { url: endpoint.url })}
        footer={<>
          <Button variant="secondary" onClick={() => setConfirm(false)}>{t('common:actions.cancel')}</Button>
          <Button variant="danger" busy={remove.isPending}
            onClick={() => remove.mutate(endpoint._id, { onSuccess: () => { toast.success(t('deleted')); setConfirm(false); }, onError: failed })}>
            {t('delete')}
          </Button>
        </>} />
    </li>
  );
}

function DeliveryLog({ endpointId }: { endpointId: string }) {
  const { t, language } = useT(['webhooks', 'common', 'errors']);
  const log = useWebhookDeliveries(endpointId);
  const queue = useQueueDelivery();
  if (log.isPending) return <Spinner size={20} label={t('common:loading')} />;
  if (log.isError) return <p role="alert">{t('loadFailed')}</p>;
  if (log.data.length === 0) return <p className="webhooks__muted">{t('logEmpty')}</p>;
  return (
    <div className="webhooks__log" tabIndex={0} role="region" aria-label={t('log')}>
      <table className="webhooks__table">
        <caption className="visually-hidden">{t('log')}</caption>
        <thead><tr>
          <th scope="col">{t('col.time')}</th><th scope="col">{t('col.event')}</th><th scope="col">{t('col.status')}</th>
          <th scope="col">{t('col.response')}</th><th scope="col">{t('col.latency')}</th><th scope="col">{t('col.attempts')}</th>
          <th scope="col"><span className="visually-hidden">{t('redeliver')}</span></th>
        </tr></thead>
        <tbody>
          {log.data.map((d) => (
            <tr key={d._id} data-testid="webhook-delivery">
              <td>{dateTime(d.lastAttemptAt ?? d.createdAt, language)}</td>
              <td>{t(`event.${d.eventType}`, { defaultValue: d.eventType })}</td>
              <td>{t(`status.${d.status}`)}</td>
              <td title={d.error ?? undefined}>{d.responseStatus ?? (d.attempts > 0 ? t('noAnswer') : '—')}</td>
              <td>{d.latencyMs !== null ? t('ms', { value: d.latencyMs }) : '—'}</td>
              <td>{d.attempts}</td>
              <td>
                <Button variant="link" size="sm" busy={queue.isPending && queue.variables?.deliveryId === d._id}
                  onClick={() => queue.mutate({ id: endpointId, deliveryId: d._id }, {
                    onSuccess: () => toast.success(t('redelivered')),
                    onError: (error) => toast.error(t('actionFailed', { reason: errorText(t, error) })),
                  })}>{t('redeliver')}</Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
