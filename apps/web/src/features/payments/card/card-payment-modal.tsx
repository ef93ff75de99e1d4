import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useT } from '../../../lib/i18n';
import { useLanguage } from '../../../lib/language';
import { formatUsd } from '../../../lib/money';
import { toast } from '../../../lib/toast';
import { createPaymentIntent, createSubscription } from '../api/card-payments';
import { buyWithSavedCard, useSavedCards } from '../api/saved-cards';
import { setPaymentBannerFlag } from '../flow/payment-banner-flag';
import type { PaymentOrder } from '../flow/payment-order';
import { refreshAfterPayment } from '../flow/refresh-after-payment';
import { paymentErrorText } from '../lib/error-text';
import { payableCards } from '../saved-cards/saved-card';
import { NEW_CARD, SavedCardChoice } from '../saved-cards/saved-card-choice';
import type { CardConfirmer } from './card-confirmer';
import { CardEntry } from './card-entry';
import { type CardPaymentType, subscriptionOffered, typeKey } from './payment-type';

/**
 * The card payment modal of spec §2 and §4: the payment type (one-time or monthly subscription, when offered),
 * the credit card section (Stripe's Card Element, or the sandbox form without Stripe keys), and the pay button.
 * A one-time payment may instead be charged to one of the customer's saved cards (the newest is preselected).
 */
export function CardPaymentModal({ order, onClose }: { order: PaymentOrder; onClose: () => void }) {
  const { t } = useT(['payments', 'errors']);
  const language = useLanguage();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const bothTypes = subscriptionOffered(order);
  const [type, setType] = useState<CardPaymentType>('one-time');
  const [loading, setLoading] = useState(false);
  /** The last failure, shown in the form as well as in a toast (a declined card must be read where it happened). */
  const [failure, setFailure] = useState<string | null>(null);
  const confirmer = useRef<CardConfirmer | null>(null);
  const onReady = useCallback((c: CardConfirmer | null) => { confirmer.current = c; }, []);

  // The type resets when the tariff changes (spec §4).
  const key = typeKey(order);
  useEffect(() => { setType('one-time'); }, [key]);
  const subscribe = bothTypes && type === 'subscribe';

  // Saved cards pay one-time payments only; a subscription always takes the card typed in.
  const saved = payableCards(useSavedCards().data ?? []);
  const [chosen, setChosen] = useState<string | null>(null);
  const savedCard = subscribe ? null : saved.find((c) => c.id === (chosen ?? saved[0]?.id)) ?? null;

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (savedCard) { await pay(() => buyWithSavedCard(savedCard.id, order)); return; }
    const cardForm = confirmer.current;
    if (!cardForm) {
      // Spec §4/§8: the card library has not loaded — nothing happens, a console line only.
      console.log('card payment: the card library is not loaded yet');
      return;
    }
    await pay(async () => {
      const { clientSecret, email, reference } = subscribe ? await createSubscription(order) : await createPaymentIntent(order);
      await cardForm.confirm(clientSecret, email);
      return reference;
    });
  }

  /** `run` pays and answers the payment's reference (order or intent id), which the banner asks the state of. */
  async function pay(run: () => Promise<string | null>) {
    setLoading(true);
    setFailure(null);
    let reference: string | null;
    try {
      reference = await run();
    } catch (error) {
      setLoading(false);
      const text = paymentErrorText(t, error);
      setFailure(text);
      toast.error(text);
      return;
    }
    onSuccess(reference);
  }

  function onSuccess(reference: string | null) {
    void refreshAfterPayment(queryClient);
    onClose();
    if (!language) { location.reload(); return; }
    setPaymentBannerFlag(reference);
    if (subscribe) location.assign(`/${language}/proxies`);
    else navigate(`~/${language}/proxies`);
  }

  const title = bothTypes ? t('card.chooseType') : t('card.oneTimeTitle');
  const amount = formatUsd(order.amount);

  return (
    <Dialog open onClose={onClose} size="sm" title={title}>
      <form className="pay-card" onSubmit={(e) => void submit(e)} aria-busy={loading || undefined} noValidate>
        {bothTypes ? (
          <div className="pay-type" role="group" aria-label={t('card.chooseType')}>
            {(['one-time', 'subscribe'] as const).map((value) => (
              <button key={value} type="button" className={`pay-type__option${type === value ? ' pay-type__option--on' : ''}`}
                aria-pressed={type === value} onClick={() => setType(value)}>
                {t(value === 'subscribe' ? 'card.typeSubscribe' : 'card.typeOneTime')}
              </button>
            ))}
          </div>
        ) : null}
        <p className="pay-summary"><span>{t('card.total')}</span> <strong data-testid="card-amount">{amount}</strong>{subscribe ? ` ${t('card.perMonth')}` : ''}</p>
        <section className="pay-card__section" aria-labelledby="pay-card-section">
          <h3 id="pay-card-section" className="pay-card__section-title">{t('card.section')}</h3>
          {!subscribe && saved.length ? <SavedCardChoice cards={saved} value={savedCard?.id ?? NEW_CARD} onChange={setChosen} /> : null}
          {savedCard ? null : <CardEntry onReady={onReady} />}
        </section>
        {failure ? <p className="field__error pay-card__error" role="alert" data-testid="card-error">{failure}</p> : null}
        <Button type="submit" className="pay-card__submit" busy={loading}>
          {subscribe ? t('card.subscribeNow') : t('card.payNow', { amount })}
        </Button>
      </form>
    </Dialog>
  );
}
