import { isLanguage, type Language } from '@cellport/shared/constants';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { Spinner } from '../../components/ui/spinner';
import { browserLanguage } from '../../lib/browser-language';
import { htmlLang, i18n, useT } from '../../lib/i18n';
import { usePaymentOrder } from './api/payment-order';
import { paymentLanguage } from './flow/payment-banner-flag';
import { outcomeOf, PaymentLookupError, PaymentOutcomeText } from './flow/payment-outcome';
import './payments.css';

/**
 * /thank-you-for-order?order=<id>, where PayPal sends the customer back (spec §7). The path has no language segment,
 * so the page uses the language the customer paid in (remembered before leaving), else the browser's. It shows the
 * order's true state, asked from the server and asked again while the IPN has not arrived: "credited" once it has,
 * "being confirmed" only while it is pending, and a cancelled, expired or failed payment plainly, with what to do:
 * that one is not thanked for, its state is the page's heading.
 */
export default function ThankYouPage() {
  // The page stands outside the signed-in shell (PayPal returns to a path without a language), so it keeps its own
  // query cache for the one payment it follows.
  const [client] = useState(() => new QueryClient());
  return <QueryClientProvider client={client}><ThankYou /></QueryClientProvider>;
}

function ThankYou() {
  const remembered = paymentLanguage();
  const language: Language = isLanguage(remembered) ? remembered : browserLanguage();
  useEffect(() => { if (i18n.language !== language) void i18n.changeLanguage(language); }, [language]);
  useEffect(() => { document.documentElement.lang = htmlLang(language); }, [language]);
  const { t } = useT(['payments', 'common']);
  const reference = new URLSearchParams(useSearch()).get('order');
  const order = usePaymentOrder(reference, language);
  const outcome = order.data ? outcomeOf(order.data) : null;
  const unpaid = outcome === 'cancelled' || outcome === 'expired' || outcome === 'failed';
  const title = unpaid ? t(`outcome.${outcome}.title`) : t('thankYou.title');
  useEffect(() => { document.title = `${title} · ${t('common:appName')}`; }, [title, t]);
  return (
    <main className="pay-thanks">
      <div className="card pay-thanks__card" data-testid="thank-you">
        <p className="pay-thanks__brand">{t('common:appName')}</p>
        {unpaid ? null : <h1>{t('thankYou.title')}</h1>}
        {reference === null ? <p>{t('thankYou.noOrder')}</p>
          : order.data ? <PaymentOutcomeText payment={order.data} headingLevel={unpaid ? 1 : 2} />
            : order.isError ? <PaymentLookupError error={order.error} />
              : <Spinner size={24} label={t('thankYou.loading')} />}
        <nav className="pay-thanks__links" aria-label={t('thankYou.next')}>
          <a className="btn" href={`/${language}/proxies`}>{t('thankYou.toProxies')}</a>
          <a className="btn btn--secondary" href={`/${language}/purchases`}>{t('thankYou.toPurchases')}</a>
        </nav>
      </div>
    </main>
  );
}
