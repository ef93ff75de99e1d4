import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useLocation } from 'wouter';
import { useT } from '../../../lib/i18n';
import { useLanguage } from '../../../lib/language';
import { usePaymentOrder } from '../api/payment-order';
import { takePaymentBannerFlag } from './payment-banner-flag';
import { outcomeOf } from './payment-outcome';

/**
 * The banner a successful card payment asks for (spec §2): shown once on the proxies page, dismissible. It says the
 * payment's true state, asked from the server (and again while it is pending): "credited" once the money is booked,
 * "being confirmed" only until then.
 */
export function PaymentBanner() {
  const { t } = useT('payments');
  const language = useLanguage();
  const [path] = useLocation();
  /** null: no banner; '': a payment whose reference is unknown; else the payment's order or intent id. */
  const [reference, setReference] = useState<string | null>(null);
  useEffect(() => {
    if (!/\/proxies\/?$/.test(path)) return;
    const flag = takePaymentBannerFlag();
    if (flag !== null) setReference(flag);
  }, [path]);
  const order = usePaymentOrder(reference ? reference : null, language);
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  const shown = reference !== null;
  useEffect(() => {
    // The banner sits at the top of the page content (the shell's <main>), above the page heading, not over it.
    const main = document.getElementById('main');
    if (!shown || !main) return;
    const element = document.createElement('div');
    main.prepend(element);
    setSlot(element);
    return () => { element.remove(); setSlot(null); };
  }, [shown]);
  if (!shown || !slot) return null;
  // Until the answer comes (or without a reference, or if it cannot be read) the banner thanks without claiming a state.
  const outcome = order.data ? outcomeOf(order.data) : null;
  const text = outcome
    ? <><strong>{t(`banner.${outcome}.title`)}</strong> {t(`banner.${outcome}.text`)}</>
    : <><strong>{t('banner.title')}</strong> {t('banner.text')}</>;
  return createPortal(
    <div className="pay-banner" role="status" data-testid="payment-banner" data-outcome={outcome ?? 'unknown'}>
      <p>{text}</p>
      <button type="button" className="btn btn--secondary btn--sm" onClick={() => setReference(null)}>{t('banner.dismiss')}</button>
    </div>,
    slot,
  );
}
