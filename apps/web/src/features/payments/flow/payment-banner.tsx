import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useLocation } from 'wouter';
import { useT } from '../../../lib/i18n';
import { takePaymentBannerFlag } from './payment-banner-flag';

/** The banner a successful card payment asks for (spec §2): shown once on the proxies page, dismissible. */
export function PaymentBanner() {
  const { t } = useT('payments');
  const [path] = useLocation();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (/\/proxies\/?$/.test(path) && takePaymentBannerFlag()) setShown(true);
  }, [path]);
  const [slot, setSlot] = useState<HTMLElement | null>(null);
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
  return createPortal(
    <div className="pay-banner" role="status" data-testid="payment-banner">
      <p><strong>{t('banner.title')}</strong> {t('banner.text')}</p>
      <button type="button" className="btn btn--secondary btn--sm" onClick={() => setShown(false)}>{t('banner.dismiss')}</button>
    </div>,
    slot,
  );
}
