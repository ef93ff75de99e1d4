import type { Language } from '@cellport/shared';
import type { CryptoPayment, PendingPayment } from '@cellport/shared/schemas/payments';
import { portName, renderStored } from '../notifications/index.js';
import type { OrderNames, OrderRow } from './orders.repository.js';

export type { OrderNames, OrderRow } from './orders.repository.js';

/**
 * The orders as the API shows them (spec §3 Payment), with the names the crypto modal needs; the description and
 * country in the reader's `language` when given (issue 14, item 3), else in the order's.
 */
export function ordersToApi(rows: OrderRow[], { tariffs, countries, ports }: OrderNames, language?: Language): PendingPayment[] {
  return rows.map((r) => {
    const d = r.details;
    const tariff = tariffs.find((t) => t.id === d.tariff_id);
    const country = countries.find((c) => c.id === d.country_id);
    const lng = language ?? (r.language as Language);
    return {
      _id: r.id, provider: r.provider, kind: r.kind, status: r.status,
      tariff_id: d.tariff_id, country_id: d.country_id, carrier_id: d.carrier_id, region_id: d.region_id,
      isShared: d.isShared, rotationInterval: d.rotationInterval, basket: d.basket, modemCount: d.modemCount, coupon: d.coupon,
      amount: r.amount.toString(),
      received: (r.coin === 'btc' ? r.received : r.received).toString(),
      description: language ? renderStored(language, r.description_text, r.description) : r.description,
      country: country ? { country_code: country.code } : null,
      tariffName: tariff ? tariff.names : null,
      countryName: country ? (country.names[lng] || country.names.en) : null,
      modemNames: Object.keys(d.basket ?? {}).map((id) => {
        const port = ports.find((p) => p.id === id);
        return port ? portName(port, lng) : '';
      }),
      expiresAt: r.expires_at?.toISOString() ?? null,
      createdAt: r.created_at.toISOString(),
      coin: r.coin,
      data: r.provider === 'crypto' && r.coin && r.address
        ? {
          address: r.address, amount: r.amount.toString(), amountBTC: r.coin === 'btc' ? r.provider_amount.toString() : null,
          coin: r.coin, basket: d.basket, modemCount: d.modemCount, rate: d.rate ?? null,
        }
        : null,
    };
  });
}

export function cryptoToApi(row: OrderRow, names: OrderNames): CryptoPayment {
  const [p] = ordersToApi([row], names);
  return { ...p!, provider: 'crypto', coin: row.coin!, data: p!.data! };
}
