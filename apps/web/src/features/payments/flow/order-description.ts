import type { Language } from '@cellport/shared/constants';
import type { TFunction } from '../../../lib/i18n';
import { productLine } from '../lib/product-line';
import type { PaymentOrder } from './payment-order';

/** The product line of an order before it is a payment record (PayPal's item name, the card modal's summary). */
export function orderDescription(t: TFunction, language: Language, order: PaymentOrder): string {
  return productLine(t, language, {
    kind: order.kind,
    basket: order.kind === 'renewal' ? order.basket : null,
    modemNames: order.kind === 'renewal' ? order.modemNames : [],
    countryName: order.kind === 'purchase' ? order.countryName : null,
    tariffName: order.kind === 'purchase' ? order.tariff.name : null,
    modemCount: order.kind === 'purchase' ? order.modemCount : null,
  });
}
