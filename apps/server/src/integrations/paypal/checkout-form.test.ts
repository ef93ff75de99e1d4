import { describe, expect, it } from 'vitest';
import { buildCheckoutForm, PAYPAL_BN } from './checkout-form.js';
import { PayPalGateway } from './paypal-gateway.js';
import { resolvePayPalSettings } from './paypal-settings.js';

const input = {
  business: 'shop@example.com', itemName: '4G US Basic - 2x port', amountCents: 5000, custom: 'paypal_abc',
  returnUrl: 'https://proxies.example.com/thank-you-for-order', notifyUrl: 'https://proxies.example.com/api/v1/payment/paypal/ipn', mode: 'sandbox' as const,
};

describe('buildCheckoutForm', () => {
  it('carries exactly the spec §7 fields plus notify_url, posting to the sandbox', () => {
    expect(buildCheckoutForm(input)).toEqual({
      action: 'https://www.sandbox.paypal.com/cgi-bin/webscr',
      fields: {
        cmd: '_xclick', business: 'shop@example.com', item_name: '4G US Basic - 2x port', item_number: '1', quantity: '1', amount: '50.00',
        no_shipping: '1', return: 'https://proxies.example.com/thank-you-for-order', custom: 'paypal_abc', currency_code: 'USD', lc: 'US', bn: PAYPAL_BN,
        notify_url: 'https://proxies.example.com/api/v1/payment/paypal/ipn',
      },
    });
  });

  it('posts to live PayPal in live mode', () => {
    expect(buildCheckoutForm({ ...input, mode: 'live' }).action).toBe('https://www.paypal.com/cgi-bin/webscr');
  });

  it('refuses fractional cents, a relative return address and an over-long custom', () => {
    expect(() => buildCheckoutForm({ ...input, amountCents: 49.99 })).toThrow(RangeError);
    expect(() => buildCheckoutForm({ ...input, returnUrl: '/thank-you-for-order' })).toThrow();
    expect(() => buildCheckoutForm({ ...input, custom: 'x'.repeat(257) })).toThrow(RangeError);
  });

  it('cuts item_name at PayPal’s 127 characters', () => {
    expect(buildCheckoutForm({ ...input, itemName: 'a'.repeat(300) }).fields.item_name).toHaveLength(127);
  });
});

describe('PayPalGateway.checkoutForm', () => {
  it('returns to /thank-you-for-order?order=<id> on our own origin and names our receiver', () => {
    const gateway = new PayPalGateway(resolvePayPalSettings({}, false).settings);
    const form = gateway.checkoutForm({ itemName: 'Add funds', amountCents: 2500, custom: 'paypal_x', orderId: 'o-1', origin: 'http://localhost:3000', notifyPath: '/api/v1/payment/paypal/ipn' });
    expect(form.fields.return).toBe('http://localhost:3000/thank-you-for-order?order=o-1');
    expect(form.fields.notify_url).toBe('http://localhost:3000/api/v1/payment/paypal/ipn');
    expect(form.fields.business).toBe(gateway.settings.receiverEmail);
    expect(form.fields.amount).toBe('25.00');
  });
});
