import { isLanguage } from '@cellport/shared/constants';
import { useEffect } from 'react';
import { i18n, useT } from '../../lib/i18n';
import { paymentLanguage } from './flow/payment-banner-flag';
import './payments.css';

/**
 * /thank-you-for-order, where PayPal sends the customer back (spec §7). The path has no language segment, so the
 * page uses the language the customer paid in (remembered before leaving), English otherwise.
 */
export default function ThankYouPage() {
  const remembered = paymentLanguage();
  const language = isLanguage(remembered) ? remembered : 'en';
  useEffect(() => { if (i18n.language !== language) void i18n.changeLanguage(language); }, [language]);
  const { t } = useT(['payments', 'common']);
  useEffect(() => { document.title = `${t('thankYou.title')} · ${t('common:appName')}`; }, [t]);
  return (
    <main className="pay-thanks">
      <div className="card pay-thanks__card">
        <p className="pay-thanks__brand">{t('common:appName')}</p>
        <h1>{t('thankYou.title')}</h1>
        <p>{t('thankYou.text')}</p>
        <a className="btn" href={`/${language}/proxies`}>{t('thankYou.toProxies')}</a>
      </div>
    </main>
  );
}
