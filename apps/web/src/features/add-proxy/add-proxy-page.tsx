import type { BuyRequest, CatalogOffer, Country, Coupon, Tariff } from '@cellport/shared/schemas/catalog';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { CouponField } from '../../components/coupon/coupon-field';
import { Button } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { formatUsd } from '../../lib/money';
import { toast } from '../../lib/toast';
import { BalanceEffectNote, CoinChoice, PayWithButton, type PaymentOrder } from '../payments';
import type { Coin } from '@cellport/shared/constants';
import { accountQuery, countriesQuery, rotationTagsQuery, tariffsQuery } from '../../store/catalog-queries';
import { useAvailableCount, type AvailabilityFilter } from './api/get-available-count';
import { catalogOffersQuery } from './api/get-catalog-offers';
import { OfferFacts } from './components/offer-facts';
import { firstInStock, offerFor, stockOf } from './lib/offers';
import { useBuyFromBalance } from './api/buy-from-balance';
import { ChoiceGroup } from './components/choice-group';
import { PaymentMethods, type PaymentMethod } from './components/payment-methods';
import { PriceSummaryCard } from './components/price-summary-card';
import { QuantityField } from './components/quantity-field';
import { errorText } from '../../lib/translate-api-error';
import { priceSummary } from './lib/price-summary';
import { choose, emptySelection, portTypesFor, regionsFor, rotationIntervalsFor, tariffsForChoice, type Selection } from './lib/selection';
import { useDebounced } from './lib/use-debounced';
import { TariffOffers } from './components/tariff-offers';
import { useTrialStatus } from './api/get-trial-status';
import './add-proxy.css';

export default function AddProxyPage() {
  const { t, language } = useT(['add-proxy', 'errors']);
  const countries = useQuery(countriesQuery);
  const tariffs = useQuery(tariffsQuery);
  const tags = useQuery(rotationTagsQuery(language));
  const account = useQuery(accountQuery);
  // Answered from the server's memory; the form waits for it only to open on a choice in stock (a failure does not block).
  const offers = useQuery(catalogOffersQuery);

  if (countries.isPending || tariffs.isPending || offers.isPending) {
    return <section className="ap-page"><PageHeader title={t('title')} /><div className="ap-loading"><Spinner label={t('loading')} size={28} /> {t('loading')}</div></section>;
  }
  if (countries.isError || tariffs.isError) {
    return (
      <section className="ap-page">
        <PageHeader title={t('title')} />
        <div className="card ap-error" role="alert">
          <p>{errorText(t, countries.error ?? tariffs.error)}</p>
          <Button variant="secondary" onClick={() => { void countries.refetch(); void tariffs.refetch(); }}>{t('retry')}</Button>
        </div>
      </section>
    );
  }
  if (!countries.data.length || !tariffs.data.length) {
    return <section className="ap-page"><PageHeader title={t('title')} /><div className="card empty-state"><p>{t('empty')}</p></div></section>;
  }
  return (
    <OrderForm
      countries={countries.data}
      tariffs={tariffs.data}
      offers={offers.data?.offers ?? null}
      tagLabel={(value) => tags.data?.find((tag) => tag.value === value)?.label ?? t('rotation.minutes', { count: value })}
      balance={account.data?.usdt.balance ?? null}
    />
  );
}

function OrderForm({ countries, tariffs, offers, tagLabel, balance }: {
  countries: Country[];
  tariffs: Tariff[];
  /** What each choice buys; null when it could not be read (the form works without it). */
  offers: CatalogOffer[] | null;
  tagLabel: (minutes: number) => string;
  balance: string | null;
}) {
  const { t, language } = useT(['add-proxy', 'errors', 'catalog-offers']);
  const [, navigate] = useLocation();
  // The page opens on a choice that has ports in stock (issue 28, item 11), not merely the first one.
  const [selection, setSelection] = useState<Selection>(() => (offers ? firstInStock(countries, tariffs, offers)
    : choose(countries, tariffs, emptySelection, { country_id: countries[0]!._id })));
  const soldOut = (stock: number) => (offers && stock === 0 ? t('catalog-offers:soldOut') : undefined);
  const [quantity, setQuantity] = useState(1);
  const [coupon, setCoupon] = useState<Coupon | null>(null);
  const [method, setMethod] = useState<PaymentMethod>('balance');
  const [coin, setCoin] = useState<Coin>('btc');
  // The tariff's paid trial, when chosen: one port, no coupon (issue 27, item 8).
  const [trialChosen, setTrialChosen] = useState(false);
  const attempt = useRef<{ body: string; key: string } | null>(null);
  const buy = useBuyFromBalance();
  const countryId = useId();
  const regionId = useId();

  const country = countries.find((c) => c._id === selection.country_id);
  const tariff = tariffs.find((x) => x._id === selection.tariff_id) ?? null;
  const update = (change: Partial<Selection>) => {
    const next = choose(countries, tariffs, selection, change);
    // A coupon was checked against one tariff and country; another choice needs a new check.
    if (next.tariff_id !== selection.tariff_id || next.country_id !== selection.country_id) { setCoupon(null); setTrialChosen(false); }
    setSelection(next);
  };

  const filter: AvailabilityFilter | null = selection.country_id && selection.isShared !== null && selection.rotationInterval !== null
    ? { country_id: selection.country_id, carrier_id: selection.carrier_id, region_id: selection.region_id, isShared: selection.isShared, rotationInterval: selection.rotationInterval }
    : null;
  const settledFilter = useDebounced(filter, 300);
  const count = useAvailableCount(settledFilter);
  const available = count.data && JSON.stringify(settledFilter) === JSON.stringify(filter) ? count.data.count : null;

  const trialStatus = useTrialStatus(Boolean(tariff?.trial));
  const trial = trialChosen && tariff?.trial && trialStatus.data?.used === false ? tariff.trial : null;
  const ports = trial ? 1 : quantity;
  const summary = useMemo(() => priceSummary(tariff?.price ?? '0', ports, trial ? null : coupon, balance, method, {
    discounts: tariff?.discounts ?? { quantity: [], days: [] }, periodDays: tariff?.periodDays ?? 0, trial,
  }), [tariff, ports, coupon, balance, method, trial]);
  const tariffName = (x: Tariff) => x.name[language] || x.name.en;
  const canPay = method === 'balance' && tariff !== null && available !== null && available >= ports && !summary.short && !buy.isPending;
  // Card, PayPal and crypto pay the same order (coupon included) through the payment dialogs; the balance is not needed.
  const order: PaymentOrder | null = tariff && selection.country_id && selection.isShared !== null && selection.rotationInterval !== null
    && available !== null && available >= ports
    ? {
        kind: 'purchase', amount: summary.total, tariff, country_id: selection.country_id, carrier_id: selection.carrier_id,
        region_id: selection.region_id, isShared: selection.isShared, rotationInterval: selection.rotationInterval,
        modemCount: ports, coupon: trial ? null : coupon?.name ?? null, countryName: country ? country.names[language] || country.name : '',
        trial: trial !== null,
      }
    : null;

  function pay() {
    if (!tariff || !selection.country_id || selection.isShared === null || selection.rotationInterval === null) return;
    const request: BuyRequest = {
      tariff_id: tariff._id, country_id: selection.country_id, carrier_id: selection.carrier_id, region_id: selection.region_id,
      isShared: selection.isShared, rotationInterval: selection.rotationInterval, modemCount: ports, coupon: trial ? null : coupon?.name ?? null,
      ...(trial ? { trial: true } : {}),
    };
    // One Idempotency-Key per purchase attempt: the same order retried after a lost answer reuses it, so the server
    // returns the first result instead of charging twice; any change to the order is a new attempt.
    const body = JSON.stringify(request);
    if (attempt.current?.body !== body) attempt.current = { body, key: crypto.randomUUID() };
    buy.mutate({ request, language, idempotencyKey: attempt.current.key }, {
      onSuccess: ({ data }) => {
        attempt.current = null;
        if (trial) void trialStatus.refetch();
        toast.success(t('success', { count: data.modems.length }));
        navigate(`/proxies?new=${data.modems.map((m) => m._id).join(',')}`);
      },
      onError: (error) => {
        // A definite refusal (4xx) ends the attempt; a network failure or 5xx keeps the key for the retry.
        if (error instanceof ApiError && error.status >= 400 && error.status < 500) attempt.current = null;
        toast.error(errorText(t, error));
      },
    });
  }

  const portTypes = portTypesFor(tariffs, selection);
  const intervals = rotationIntervalsFor(tariffs, selection);
  const offered = tariffsForChoice(tariffs, selection);

  return (
    <section className="ap-page">
      <PageHeader title={t('title')} description={t('description')} />
      <div className="ap-layout">
        <form className="ap-steps" onSubmit={(e) => { e.preventDefault(); if (canPay) pay(); }} aria-label={t('title')}>
          <div className="card ap-step">
            <div className="field">
              <label htmlFor={countryId}>{t('country.label')}</label>
              <select id={countryId} value={selection.country_id ?? ''} onChange={(e) => update({ country_id: e.target.value })}>
                {countries.map((c) => <option key={c._id} value={c._id}>{c.names[language] || c.name}</option>)}
              </select>
            </div>
            {country && country.carriers.length > 0 ? (
              <ChoiceGroup
                legend={t('carrier.label')} name="carrier" value={selection.carrier_id}
                choices={country.carriers.map((c) => ({
                  value: c._id, label: c.name, soldOut: soldOut(stockOf(offers ?? [], { country_id: country._id, carrier_id: c._id })),
                }))}
                onChange={(carrier_id) => update({ carrier_id })}
              />
            ) : null}
            <div className="field">
              <label htmlFor={regionId}>{t('region.label')}</label>
              <select id={regionId} value={selection.region_id ?? ''} onChange={(e) => update({ region_id: e.target.value || null })}>
                <option value="">{t('region.any')}</option>
                {regionsFor(country, selection.carrier_id).map((r) => {
                  const out = soldOut(stockOf(offers ?? [], { country_id: country?._id ?? null, carrier_id: selection.carrier_id, region_id: r._id }));
                  const name = r.names[language] || r.name;
                  return <option key={r._id} value={r._id}>{out ? `${name} — ${out}` : name}</option>;
                })}
              </select>
            </div>
          </div>

          <div className="card ap-step">
            {portTypes.length ? (
              <ChoiceGroup
                legend={t('type.label')} name="port-type" value={selection.isShared}
                choices={portTypes.map((shared) => ({
                  value: shared, label: t(shared ? 'type.shared' : 'type.dedicated'), hint: t(shared ? 'type.sharedHint' : 'type.dedicatedHint'),
                  soldOut: soldOut(stockOf(offers ?? [], { ...selection, isShared: shared, rotationInterval: undefined })),
                }))}
                onChange={(isShared) => update({ isShared })}
              />
            ) : <p className="field__hint">{t('noTariffs')}</p>}
            {intervals.length ? (
              <ChoiceGroup
                legend={t('rotation.label')} name="rotation" value={selection.rotationInterval}
                choices={intervals.map((minutes) => ({
                  value: minutes, label: tagLabel(minutes),
                  soldOut: soldOut(stockOf(offers ?? [], { ...selection, isShared: selection.isShared ?? undefined, rotationInterval: minutes })),
                }))}
                onChange={(rotationInterval) => update({ rotationInterval })}
              />
            ) : null}
            {offered.length ? (
              <ChoiceGroup
                legend={t('tariff.label')} name="tariff" value={selection.tariff_id}
                choices={offered.map((x) => ({
                  value: x._id,
                  label: <><strong>{formatUsd(x.price)}</strong> / {t(`period.${x.period}`)}</>,
                  hint: tariffName(x),
                }))}
                onChange={(tariff_id) => update({ tariff_id })}
              />
            ) : null}
            {offers ? <OfferFacts offer={offerFor(offers, selection)} loading={false} /> : null}
          </div>

          <div className="card ap-step">
            {tariff ? <TariffOffers tariff={tariff} trial={trial !== null} onTrial={setTrialChosen} trialUsed={trialStatus.data?.used ?? null} /> : null}
            {trial ? null : (
              <QuantityField value={quantity} onChange={setQuantity} available={available} counting={count.isFetching || settledFilter !== filter} />
            )}
            {trial ? null : (
              <CouponField
                key={`${selection.tariff_id}`} ns="add-proxy" className="ap-coupon"
                tariffId={selection.tariff_id} countryId={selection.country_id} applied={coupon} onApplied={setCoupon}
                disabled={!selection.tariff_id}
              />
            )}
            <PaymentMethods value={method} onChange={setMethod} />
            {method === 'crypto' ? <CoinChoice value={coin} onChange={setCoin} /> : null}
          </div>
        </form>

        <aside className="card ap-aside" aria-label={t('summary.title')}>
          <h2 className="ap-aside__title">{t('summary.title')}</h2>
          {tariff ? (
            <p className="ap-aside__line">
              {trial
                ? t('summary.trialLine', { count: trial.hours, tariff: tariffName(tariff), country: country ? country.names[language] || country.name : '' })
                : t('summary.line', { count: quantity, tariff: tariffName(tariff), country: country ? country.names[language] || country.name : '' })}
            </p>
          ) : null}
          <PriceSummaryCard summary={summary} />
          {summary.short && summary.effect.method === 'balance' ? (
            <p className="ap-aside__short" role="status">{t('addFundsHint', { amount: formatUsd(-(summary.effect.after ?? 0n)) })}</p>
          ) : null}
          <BalanceEffectNote effect={summary.effect} className="ap-aside__note" />
          {method === 'balance' ? (
            <Button className="ap-aside__pay" onClick={pay} disabled={!canPay} busy={buy.isPending}>
              {buy.isPending ? t('paying') : t('pay', { amount: formatUsd(summary.total) })}
            </Button>
          ) : <PayWithButton className="ap-aside__pay" method={method} coin={coin} order={order} />}
          <Link href="/proxies" className="ap-aside__link">{t('toProxies')}</Link>
        </aside>
      </div>
    </section>
  );
}
