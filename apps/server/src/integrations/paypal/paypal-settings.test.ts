import { describe, expect, it } from 'vitest';
import { PayPalGateway } from './paypal-gateway.js';
import { PAYPAL_SANDBOX_RECEIVER, resolvePayPalSettings } from './paypal-settings.js';

describe('resolvePayPalSettings', () => {
  it('defaults to sandbox with a sandbox receiver and offline completion outside production', () => {
    expect(resolvePayPalSettings({}, false)).toEqual({
      settings: {
        mode: 'sandbox', receiverEmail: PAYPAL_SANDBOX_RECEIVER, checkoutUrl: 'https://www.sandbox.paypal.com/cgi-bin/webscr',
        ipnVerifyUrl: 'https://ipnpb.sandbox.paypal.com/cgi-bin/webscr', simulation: true,
      },
      problems: [],
    });
  });

  it('validates live IPNs at the live endpoint', () => {
    const { settings, problems } = resolvePayPalSettings({ PAYPAL_MODE: 'live', PAYPAL_RECEIVER_EMAIL: 'shop@example.com' }, true);
    expect(problems).toEqual([]);
    expect(settings).toMatchObject({ mode: 'live', ipnVerifyUrl: 'https://ipnpb.paypal.com/cgi-bin/webscr', checkoutUrl: 'https://www.paypal.com/cgi-bin/webscr', simulation: false });
  });

  it('is off in production unless live is asked for, and refuses sandbox or test overrides there', () => {
    expect(resolvePayPalSettings({}, true)).toMatchObject({ settings: { mode: 'off', simulation: false }, problems: [] });
    expect(resolvePayPalSettings({ PAYPAL_MODE: 'sandbox' }, true).problems).toHaveLength(1);
    expect(resolvePayPalSettings({ PAYPAL_MODE: 'live' }, true).problems).toEqual(['PAYPAL_RECEIVER_EMAIL must be set for PAYPAL_MODE=live']);
    expect(resolvePayPalSettings({ PAYPAL_MODE: 'live', PAYPAL_RECEIVER_EMAIL: 'a@b.c', PAYPAL_IPN_URL: 'http://127.0.0.1:9' }, true).problems).toHaveLength(1);
  });

  it('lets tests point IPN validation at a local server', () => {
    expect(resolvePayPalSettings({ PAYPAL_IPN_URL: 'http://127.0.0.1:9/ipn' }, false).settings.ipnVerifyUrl).toBe('http://127.0.0.1:9/ipn');
  });
});

describe('offline completion', () => {
  it('produces the same credit a verified IPN would, through checkIpn', () => {
    const gateway = new PayPalGateway(resolvePayPalSettings({}, false).settings);
    const out = gateway.simulate({ custom: 'paypal_abc', amountCents: 5000 });
    expect(out).toEqual({ action: 'credit', txnId: expect.stringMatching(/^SBX[0-9A-F]{14}$/), amountCents: 5000, currency: 'USD', custom: 'paypal_abc', payerEmail: expect.any(String) });
    const again = gateway.simulate({ custom: 'paypal_abc', amountCents: 5000 });
    expect(again.action === 'credit' && out.action === 'credit' && again.txnId !== out.txnId).toBe(true);
  });

  it('is refused in live mode and in production', () => {
    expect(() => new PayPalGateway(resolvePayPalSettings({ PAYPAL_MODE: 'live', PAYPAL_RECEIVER_EMAIL: 'a@b.c' }, false).settings).simulate({ custom: 'x', amountCents: 1 })).toThrow();
    expect(() => new PayPalGateway(resolvePayPalSettings({ PAYPAL_MODE: 'live', PAYPAL_RECEIVER_EMAIL: 'a@b.c' }, true).settings).simulate({ custom: 'x', amountCents: 1 })).toThrow();
  });
});
