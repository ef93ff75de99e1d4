import type { PaymentOrder } from '../flow/payment-order';

/**
 * The purchase or renewal fields every payment endpoint takes (contract of issue 4): the same body for crypto,
 * PayPal and card, so a coupon and a basket apply the same way whichever method pays. A top-up sends none.
 */
export function orderFields(order: PaymentOrder) {
  if (order.kind === 'topup') return {};
  if (order.kind === 'renewal') return { basket: order.basket, coupon: order.coupon ?? undefined };
  return {
    tariff_id: order.tariff._id,
    country_id: order.country_id,
    carrier_id: order.carrier_id ?? undefined,
    region_id: order.region_id ?? undefined,
    isShared: order.isShared,
    rotationInterval: order.rotationInterval,
    modemCount: order.modemCount,
    coupon: order.coupon ?? undefined,
    ...(order.trial ? { trial: true } : {}),
  };
}
