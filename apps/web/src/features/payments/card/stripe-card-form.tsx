import type { Stripe, StripeCardElement } from '@stripe/stripe-js';
import { useEffect, useRef, useState } from 'react';
import { useT } from '../../../lib/i18n';
import type { CardConfirmer } from './card-confirmer';

/**
 * Stripe's Card Element: card data goes from Stripe's iframe straight to Stripe, never to our server.
 * `@stripe/stripe-js` injects js.stripe.com at run time (allowed by our CSP); until it has loaded the modal has no
 * confirmer, so submitting does nothing (spec §4).
 */
export function StripeCardForm({ publishableKey, onReady }: { publishableKey: string; onReady: (c: CardConfirmer | null) => void }) {
  const { t } = useT('payments');
  const mountRef = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let card: StripeCardElement | null = null;
    let live = true;
    void import('@stripe/stripe-js')
      .then(({ loadStripe }) => loadStripe(publishableKey))
      .then((stripe: Stripe | null) => {
        if (!live || !stripe || !mountRef.current) { if (!stripe) setFailed(true); return; }
        card = stripe.elements().create('card', { hidePostalCode: true });
        card.mount(mountRef.current);
        const element = card;
        onReady({
          async confirm(clientSecret, email) {
            const result = await stripe.confirmCardPayment(clientSecret, { payment_method: { card: element, billing_details: { email } } });
            if (result.error) throw new Error(result.error.message ?? t('card.failed'));
          },
          async save(clientSecret) {
            const result = await stripe.confirmCardSetup(clientSecret, { payment_method: { card: element } });
            if (result.error) throw new Error(result.error.message ?? t('savedCards.addFailed'));
          },
        });
      })
      .catch(() => { if (live) setFailed(true); });
    return () => { live = false; onReady(null); card?.destroy(); };
  }, [publishableKey, onReady, t]);

  return (
    <div className="pay-card-element-wrap">
      <div ref={mountRef} className="pay-card-element" aria-label={t('card.section')} />
      {failed ? <p className="field__error" role="alert">{t('card.libraryFailed')}</p> : null}
    </div>
  );
}
