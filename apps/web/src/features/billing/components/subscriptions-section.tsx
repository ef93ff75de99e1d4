import type { Subscription } from '@cellport/shared/schemas/subscriptions';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { htmlLang, useT } from '../../../lib/i18n';
import { formatUsd } from '../../../lib/money';
import { toast } from '../../../lib/toast';
import { errorText } from '../../../lib/translate-api-error';
import { useSettings } from '../../../store/settings';
import { useSubscriptionAction, useSubscriptions } from '../../../store/subscriptions';
import { cardLabel, payableCards, useSavedCards } from '../../payments';

/** A day in the reader's language ("12 Jan 2027"). */
export const day = (iso: string, language: string) =>
  new Intl.DateTimeFormat(htmlLang(language as 'en'), { dateStyle: 'medium' }).format(new Date(iso));

const TONE: Record<Subscription['status'], string> = { active: 'success', past_due: 'warning', canceled: 'neutral', incomplete: 'neutral' };

/**
 * Billing & Renewals' card subscriptions: for each, its ports, what it charges and to which card, when the card is
 * charged next, and its status (active, ending on a date, payment failed with the next try, ended); cancel (at the
 * period's end, after a confirmation that says until when the ports stay), resume, and change the card.
 * Hidden when card payments are off and nothing was ever subscribed.
 */
export function SubscriptionsSection() {
  const { t, language } = useT(['billing', 'payments', 'errors']);
  const provider = useSettings().card?.provider;
  const on = provider === 'stripe' || provider === 'sandbox';
  const subs = useSubscriptions(on);
  const [canceling, setCanceling] = useState<Subscription | null>(null);
  const [changing, setChanging] = useState<Subscription | null>(null);
  const action = useSubscriptionAction();
  if (!on || (subs.isSuccess && subs.data.length === 0)) return null;

  function resume(s: Subscription) {
    action.mutate({ id: s.id, action: 'resume' }, {
      onSuccess: () => toast.success(t('subscriptions.resumed')),
      onError: (e) => toast.error(errorText(t, e)),
    });
  }

  return (
    <section className="card bl-subs" id="subscriptions" aria-labelledby="bl-subs-title" data-testid="subscriptions">
      <h2 id="bl-subs-title" className="bl-subs__title">{t('subscriptions.title')}</h2>
      <p className="bl-muted">{t('subscriptions.description')}</p>
      {subs.isPending ? <Spinner label={t('subscriptions.loading')} /> : subs.isError ? (
        <div role="alert"><p>{errorText(t, subs.error)}</p><Button variant="secondary" size="sm" onClick={() => void subs.refetch()}>{t('retry')}</Button></div>
      ) : (
        <ul className="bl-subs__list">
          {subs.data.map((s) => (
            <li key={s.id} className="bl-sub" data-testid="subscription">
              <div className="bl-sub__head">
                <h3 className="bl-sub__ports">{s.ports.map((p) => p.name).join(', ') || t('subscriptions.noPorts')}</h3>
                <span className={`badge badge--${TONE[s.status]}`} data-testid="subscription-status">{statusText(t, s, language)}</span>
              </div>
              <dl className="bl-sub__facts">
                <div><dt>{t('subscriptions.amount')}</dt><dd>{t('subscriptions.perPeriod', { amount: formatUsd(s.amount), days: s.intervalDays })}</dd></div>
                <div><dt>{t('subscriptions.card')}</dt><dd>{s.card ? cardLabel(s.card, t('payments:savedCards.unknownBrand')) : '—'}</dd></div>
                <div>
                  <dt>{t('subscriptions.nextCharge')}</dt>
                  <dd data-testid="subscription-next">{s.nextChargeAt ? day(s.nextChargeAt, language) : t('subscriptions.noCharge')}</dd>
                </div>
              </dl>
              {s.status === 'past_due' ? <p className="bl-sub__failure" role="status">{t('subscriptions.failure')}</p> : null}
              {s.status !== 'canceled' ? (
                <div className="bl-sub__actions">
                  {s.cancelAtPeriodEnd
                    ? <Button size="sm" onClick={() => resume(s)} busy={action.isPending} aria-label={t('subscriptions.resumeFor', { ports: portsOf(s) })}>{t('subscriptions.resume')}</Button>
                    : <Button variant="secondary" size="sm" onClick={() => setCanceling(s)} aria-label={t('subscriptions.cancelFor', { ports: portsOf(s) })}>{t('subscriptions.cancel')}</Button>}
                  <Button variant="secondary" size="sm" onClick={() => setChanging(s)} aria-label={t('subscriptions.changeCardFor', { ports: portsOf(s) })}>{t('subscriptions.changeCard')}</Button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}

      <Dialog
        open={canceling !== null} onClose={() => setCanceling(null)} size="sm" title={t('subscriptions.cancelTitle')}
        description={canceling ? cancelText(t, canceling, language) : ''}
        footer={<>
          <Button variant="secondary" onClick={() => setCanceling(null)}>{t('subscriptions.keep')}</Button>
          <Button variant="danger" busy={action.isPending} onClick={() => canceling && action.mutate({ id: canceling.id, action: 'cancel' }, {
            onSuccess: () => { setCanceling(null); toast.success(t('subscriptions.canceled')); },
            onError: (e) => toast.error(errorText(t, e)),
          })}>{t('subscriptions.cancelConfirm')}</Button>
        </>}
      />
      {changing ? <ChangeCardDialog subscription={changing} onClose={() => setChanging(null)} /> : null}
    </section>
  );
}

const portsOf = (s: Subscription) => s.ports.map((p) => p.name).join(', ');

type T = ReturnType<typeof useT>['t'];

function statusText(t: T, s: Subscription, language: string): string {
  if (s.status === 'active' && s.cancelAtPeriodEnd && s.currentPeriodEnd) return t('subscriptions.status.ending', { date: day(s.currentPeriodEnd, language) });
  return t(`subscriptions.status.${s.status}`);
}

function cancelText(t: T, s: Subscription, language: string): string {
  // A failed subscription has no paid period ahead: it ends at once.
  if (s.status === 'past_due' || !s.currentPeriodEnd) return t('subscriptions.cancelNowText');
  return t('subscriptions.cancelText', { date: day(s.currentPeriodEnd, language) });
}

/** Change card: one of the customer's saved cards (added on the Account page), charged from the next payment on. */
function ChangeCardDialog({ subscription, onClose }: { subscription: Subscription; onClose: () => void }) {
  const { t } = useT(['billing', 'payments', 'errors']);
  const cards = useSavedCards();
  const action = useSubscriptionAction();
  const usable = payableCards(cards.data ?? []);
  const [chosen, setChosen] = useState<string>('');
  const pick = chosen || usable[0]?.id || '';
  return (
    <Dialog open onClose={onClose} size="sm" title={t('subscriptions.changeCardTitle')} description={t('subscriptions.changeCardText')}
      footer={<>
        <Button variant="secondary" onClick={onClose}>{t('subscriptions.keep')}</Button>
        <Button busy={action.isPending} disabled={!pick} onClick={() => action.mutate({ id: subscription.id, action: 'card', paymentMethodId: pick }, {
          onSuccess: () => { onClose(); toast.success(t('subscriptions.cardChanged')); },
          onError: (e) => toast.error(errorText(t, e)),
        })}>{t('subscriptions.useCard')}</Button>
      </>}>
      {cards.isPending ? <Spinner label={t('subscriptions.loading')} /> : usable.length === 0 ? (
        <p>{t('subscriptions.noCards')}</p>
      ) : (
        <fieldset className="bl-sub__cards">
          <legend className="visually-hidden">{t('subscriptions.changeCardTitle')}</legend>
          {usable.map((c) => (
            <label key={c.id} className="bl-sub__card-choice">
              <input type="radio" name="subscription-card" value={c.id} checked={pick === c.id} onChange={() => setChosen(c.id)} />
              {cardLabel(c, t('payments:savedCards.unknownBrand'))}
            </label>
          ))}
        </fieldset>
      )}
    </Dialog>
  );
}
