import { useEffect, useId, useRef, useState } from 'react';
import { useT } from '../../../lib/i18n';
import { confirmSandboxCard, type SandboxCard } from '../api/card-payments';
import { confirmSandboxSetup } from '../api/saved-cards';
import type { CardConfirmer } from './card-confirmer';

/** 4242424242424242 → '4242 4242 4242 4242' as it is typed. */
const groupDigits = (value: string) => value.replace(/\D/g, '').slice(0, 19).replace(/(\d{4})(?=\d)/g, '$1 ');
/** '1230' → '12/30'. */
const formatExpiry = (value: string) => {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
};

/**
 * The sandbox card provider's form (no Stripe keys configured): number, expiry and CVC, posted with the payment's
 * client secret to our sandbox endpoint, which settles through the same fulfilment code as Stripe's webhook (or, to
 * save the card, with a setup intent's client secret to the sandbox's stand-in for Stripe.js confirmSetup).
 * No real card is charged; the test cards follow Stripe's (4242… succeeds, 4000 0000 0000 0002 is declined).
 */
export function SandboxCardForm({ onReady }: { onReady: (c: CardConfirmer | null) => void }) {
  const { t } = useT('payments');
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const values = useRef({ number, expiry, cvc });
  values.current = { number, expiry, cvc };
  const ids = { number: useId(), expiry: useId(), cvc: useId(), note: useId() };

  useEffect(() => {
    const typed = (): SandboxCard => {
      const { number: n, expiry: e, cvc: c } = values.current;
      if (n.replace(/\D/g, '').length < 12 || !/^\d{2}\/\d{2}$/.test(e) || !/^\d{3,4}$/.test(c)) throw new Error(t('card.incomplete'));
      return { cardNumber: n.replace(/\s/g, ''), expiry: e, cvc: c };
    };
    onReady({
      async confirm(clientSecret) { await confirmSandboxCard(clientSecret, typed()); },
      async save(clientSecret) { await confirmSandboxSetup(clientSecret, typed()); },
    });
    return () => onReady(null);
  }, [onReady, t]);

  return (
    <div className="pay-sandbox-card" aria-describedby={ids.note}>
      <p id={ids.note} className="pay-sandbox-note">{t('card.sandboxNote')}</p>
      <div className="field">
        <label htmlFor={ids.number}>{t('card.number')}</label>
        <input id={ids.number} inputMode="numeric" autoComplete="cc-number" placeholder="4242 4242 4242 4242"
          value={number} onChange={(e) => setNumber(groupDigits(e.target.value))} />
      </div>
      <div className="pay-sandbox-card__row">
        <div className="field">
          <label htmlFor={ids.expiry}>{t('card.expiry')}</label>
          <input id={ids.expiry} inputMode="numeric" autoComplete="cc-exp" placeholder={t('card.expiryPlaceholder')}
            value={expiry} onChange={(e) => setExpiry(formatExpiry(e.target.value))} />
        </div>
        <div className="field">
          <label htmlFor={ids.cvc}>{t('card.cvc')}</label>
          <input id={ids.cvc} inputMode="numeric" autoComplete="cc-csc" placeholder="123" maxLength={4}
            value={cvc} onChange={(e) => setCvc(e.target.value.replace(/\D/g, '').slice(0, 4))} />
        </div>
      </div>
      <p className="field__hint">{t('card.testCards')}</p>
    </div>
  );
}
