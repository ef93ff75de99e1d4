import type { Coupon, Port } from '@cellport/shared/schemas/catalog';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useSearch } from 'wouter';
import { CouponField } from '../../components/coupon/coupon-field';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { expiryState } from '../../lib/dates';
import { useT } from '../../lib/i18n';
import { formatUsd } from '../../lib/money';
import { toast } from '../../lib/toast';
import { BalanceEffectNote, BalanceEffectRows, CoinChoice, MethodChoice, PayWithButton, balanceEffect, type MethodOrBalance } from '../payments';
import type { Coin } from '@cellport/shared/constants';
import { accountQuery, localizedModemsQuery } from '../../store/catalog-queries';
import { useRenewPorts } from './api/renew-ports';
import { RenewalLine } from './components/renewal-line';
import { SubscriptionsSection } from './components/subscriptions-section';
import { basketFromSearch, basketRequest, basketTotals, lineValid, type Basket, type BasketLine } from './lib/basket';
import { errorText } from '../../lib/translate-api-error';
import './billing.css';

/** The one value all chosen ports share (tariff or country), so a coupon can be checked against it. */
function common(values: string[]): string | null {
  return values.length && values.every((v) => v === values[0]) ? values[0]! : null;
}

/** Billing & Renewals: put ports in a basket, choose how long each, see every price, and pay from the balance. */
export default function BillingPage() {
  const { t, language } = useT(['billing', 'errors']);
  const query = useQuery(localizedModemsQuery(language));
  const account = useQuery(accountQuery);
  const modems = query.data;
  // Soonest expiry first: those are the ports to renew.
  const ports = useMemo(() => [...(modems ?? [])].sort((a, b) => a.expiresAt.localeCompare(b.expiresAt)), [modems]);
  // ?ports=id,id (Your Proxies' "Renew all" for a tag) starts with those ports in the basket, one period each.
  const search = useSearch();
  const [basket, setBasket] = useState<Basket>(() => basketFromSearch(search));
  const [coupon, setCoupon] = useState<Coupon | null>(null);
  const renew = useRenewPorts();
  const [method, setMethod] = useState<MethodOrBalance>('balance');
  const [coin, setCoin] = useState<Coin>('btc');

  const chosen = ports.filter((p) => basket[p._id]);
  // Only ports the customer holds now are paid for (a link may name one since released).
  const payable: Basket = Object.fromEntries(chosen.map((p) => [p._id, basket[p._id]!]));
  const totals = basketTotals(ports, basket, coupon);
  // A line with days out of range says so on its row; nothing is paid until it is put right.
  const ready = chosen.length > 0 && chosen.every((p) => lineValid(basket[p._id]!));
  const balance = account.data?.usdt.balance ?? null;
  // What the chosen method does to the balance: card, PayPal and crypto leave it as it is (issue 14, item 7).
  const effect = balanceEffect(method, totals.total, balance);
  const short = effect.method === 'balance' && effect.short;
  const soon = ports.filter((p) => expiryState(p.expiresAt) !== 'ok').length;

  function setLine(port: Port, line: BasketLine | undefined) {
    setBasket((b) => {
      const next = { ...b };
      if (line) next[port._id] = line; else delete next[port._id];
      return next;
    });
    // The discount is recomputed from the new subtotal; the server checks the coupon against the basket when paying.
  }

  function pay() {
    renew.mutate({ request: { basket: basketRequest(payable), coupon: coupon?.name ?? null }, language }, {
      onSuccess: ({ data }) => {
        toast.success(t('success', { count: data.modems.length, amount: formatUsd(data.payment.amount) }));
        setBasket({});
        setCoupon(null);
      },
      onError: (error) => toast.error(errorText(t, error)),
    });
  }

  let body;
  if (query.isPending) {
    body = <div className="bl-loading"><Spinner label={t('loading')} size={28} /> {t('loading')}</div>;
  } else if (query.isError) {
    body = (
      <div className="card bl-error" role="alert">
        <p>{errorText(t, query.error)}</p>
        <Button variant="secondary" onClick={() => void query.refetch()}>{t('retry')}</Button>
      </div>
    );
  } else if (!ports.length) {
    body = (
      <EmptyState title={t('empty.title')} action={<Link href="/add-proxy" className="btn">{t('empty.action')}</Link>}>
        <p>{t('empty.text')}</p>
      </EmptyState>
    );
  } else {
    body = (
      <div className="bl-layout">
        <div className="card bl-table-card">
          {soon ? <p className="bl-soon-note" role="status">{t('soonNote', { count: soon })}</p> : null}
          <table className="bl-table">
            <caption className="visually-hidden">{t('table.caption')}</caption>
            <thead>
              <tr>
                <th scope="col"><span className="visually-hidden">{t('table.choose')}</span></th>
                <th scope="col">{t('table.port')}</th>
                <th scope="col">{t('table.expires')}</th>
                <th scope="col">{t('table.term')}</th>
                <th scope="col" className="bl-right">{t('table.amount')}</th>
              </tr>
            </thead>
            <tbody>
              {ports.map((port) => <RenewalLine key={port._id} port={port} line={basket[port._id]} onChange={(line) => setLine(port, line)} />)}
            </tbody>
          </table>
        </div>

        <aside className="card bl-aside" aria-label={t('summary.title')}>
          <h2 className="bl-aside__title">{t('summary.title')}</h2>
          <p className="bl-muted">{chosen.length ? t('summary.ports', { count: chosen.length }) : t('summary.none')}</p>
          <CouponField
            ns="billing" className="bl-coupon"
            tariffId={common(chosen.map((p) => p.tariff_id))}
            countryId={common(chosen.map((p) => p.country._id))}
            applied={coupon} onApplied={setCoupon} disabled={!chosen.length}
          />
          <dl className="bl-summary">
            <div><dt>{t('summary.subtotal')}</dt><dd>{formatUsd(totals.subtotal)}</dd></div>
            <div><dt>{t('summary.discount')}</dt><dd>{totals.discount > 0n ? `−${formatUsd(totals.discount)}` : formatUsd(0n)}</dd></div>
            <div className="bl-summary__total"><dt>{t('summary.total')}</dt><dd data-testid="renewal-total">{formatUsd(totals.total)}</dd></div>
            <BalanceEffectRows effect={effect} shortClassName="bl-summary__short" />
          </dl>
          <BalanceEffectNote effect={effect} className="bl-muted" />
          <MethodChoice value={method} onChange={setMethod} />
          {method === 'crypto' ? <CoinChoice value={coin} onChange={setCoin} /> : null}
          {effect.method === 'balance' && effect.short ? <p className="bl-short" role="status">{t('addFundsHint', { amount: formatUsd(-(effect.after ?? 0n)) })}</p> : null}
          {method === 'balance' ? (
            <Button onClick={pay} busy={renew.isPending} disabled={!ready || short || balance === null} className="bl-pay">
              {renew.isPending ? t('paying') : t('pay', { amount: formatUsd(totals.total) })}
            </Button>
          ) : (
            // Card, PayPal and crypto renew the same basket (coupon included) through the payment dialogs.
            <PayWithButton className="bl-pay" method={method} coin={coin}
              order={ready ? { kind: 'renewal', amount: totals.total, basket: basketRequest(payable), modemNames: chosen.map((p) => p.modem_name), coupon: coupon?.name ?? null } : null} />
          )}
        </aside>
      </div>
    );
  }

  return (
    <section className="bl-page">
      <PageHeader title={t('title')} description={t('description')} />
      <SubscriptionsSection />
      {body}
    </section>
  );
}
