import { centsToAmount } from './amount.js';
import { PAYPAL_ENDPOINTS, type PayPalMode } from './paypal-settings.js';

export interface CheckoutFormInput {
  /** Our receiving PayPal account (PAYPAL_RECEIVER_EMAIL). */
  business: string;
  itemName: string;
  amountCents: number;
  /** Comes back unchanged in the IPN: the pending payment's client secret (`paypal_<id>`). */
  custom: string;
  /** Where PayPal sends the buyer afterwards: /thank-you-for-order on our own origin. */
  returnUrl: string;
  /** Our IPN listener. */
  notifyUrl: string;
  mode: PayPalMode;
  /** Only for tests: post somewhere other than PayPal. */
  actionUrl?: string;
}

/** The browser builds a hidden form from this and submits it (a plain POST; PayPal needs no API call from us). */
export interface CheckoutForm {
  action: string;
  fields: Record<string, string>;
}

/** PayPal's "build notation" code identifying the integration that sent the buyer. */
export const PAYPAL_BN = 'Cellport_BuyNow_WPS_US';

/**
 * The PayPal Payments Standard "Buy Now" form of spec §7: cmd _xclick, business, item_name, item_number 1,
 * quantity 1, amount, no_shipping 1, return, custom, currency_code USD, lc US, bn, plus notify_url for the IPN.
 */
export function buildCheckoutForm(input: CheckoutFormInput): CheckoutForm {
  if (!input.business) throw new Error('PayPal receiver (business) is not configured');
  if (!input.custom || input.custom.length > 256) throw new RangeError('custom must be 1–256 characters (PayPal limit)');
  return {
    action: input.actionUrl ?? PAYPAL_ENDPOINTS[input.mode].checkout,
    fields: {
      cmd: '_xclick',
      business: input.business,
      // PayPal cuts item_name at 127 characters; cutting it ourselves keeps what the buyer sees predictable.
      item_name: [...input.itemName].slice(0, 127).join(''),
      item_number: '1',
      quantity: '1',
      amount: centsToAmount(input.amountCents),
      no_shipping: '1',
      return: absoluteHttpUrl(input.returnUrl, 'returnUrl'),
      custom: input.custom,
      currency_code: 'USD',
      lc: 'US',
      bn: PAYPAL_BN,
      notify_url: absoluteHttpUrl(input.notifyUrl, 'notifyUrl'),
    },
  };
}

function absoluteHttpUrl(value: string, label: string): string {
  const url = new URL(value); // throws on a relative or malformed address
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new RangeError(`${label} must be an http(s) address`);
  return url.toString();
}
