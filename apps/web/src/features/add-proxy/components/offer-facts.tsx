import type { CatalogOffer } from '@cellport/shared/schemas/catalog';
import { useT } from '../../../lib/i18n';
import './offer-facts.css';

/**
 * What the chosen place and port type buys (issue 27, item 8): ports in stock, and the medians of its modems' own
 * speed tests (download, upload, latency), whether UDP works, and the carrier's ASN. Numbers the agents have not
 * measured yet say so rather than showing a guess.
 */
export function OfferFacts({ offer, loading }: { offer: CatalogOffer | null; loading: boolean }) {
  const { t, language } = useT('catalog-offers');
  if (loading) return null;
  const number = (n: number) => n.toLocaleString(language === 'cn' ? 'zh-CN' : language, { maximumFractionDigits: 1 });
  const stock = offer?.inStock ?? 0;
  const measured = offer !== null && offer.measured > 0;
  return (
    <section className="ap-offer" aria-label={t('title')} data-testid="offer-facts">
      <h3 className="ap-offer__title">{t('title')}</h3>
      <dl className="ap-offer__facts">
        <div className={`ap-offer__fact${stock === 0 ? ' ap-offer__fact--sold-out' : ''}`}>
          <dt>{t('stock')}</dt>
          <dd>{stock > 0 ? t('inStock', { count: stock }) : t('soldOut')}</dd>
        </div>
        <div className="ap-offer__fact">
          <dt>{t('download')}</dt>
          <dd>{measured && offer.downMbps !== null ? t('mbps', { value: number(offer.downMbps) }) : t('notMeasured')}</dd>
        </div>
        <div className="ap-offer__fact">
          <dt>{t('upload')}</dt>
          <dd>{measured && offer.upMbps !== null ? t('mbps', { value: number(offer.upMbps) }) : t('notMeasured')}</dd>
        </div>
        <div className="ap-offer__fact">
          <dt>{t('latency')}</dt>
          <dd>{measured && offer.latencyMs !== null ? t('ms', { value: number(offer.latencyMs) }) : t('notMeasured')}</dd>
        </div>
        <div className="ap-offer__fact">
          <dt>{t('udp')}</dt>
          <dd>{offer?.udp === true ? t('udpYes') : offer?.udp === false ? t('udpNo') : t('notChecked')}</dd>
        </div>
        <div className="ap-offer__fact">
          <dt>{t('asn')}</dt>
          <dd>{offer?.asn ? `AS${offer.asn}` : t('asnUnknown')}</dd>
        </div>
      </dl>
      {measured ? <p className="ap-offer__note">{t('measuredOn', { count: offer.measured })}</p> : null}
    </section>
  );
}
