import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeHttpServer, type FakeHttpServer } from '../../../test/fake-http.js';
import { buildTestApp, describeOnPostgres, type TestApp } from '../../../test/helpers.js';
import { buildCountingApp } from '../notifications/test-support.js';
import { createCustomer, json, usdtBalance } from '../../../test/fixtures.js';
import { call, signedIn, type Signed } from '../../../test/console-helpers.js';

// The console's PayPal receiver override is the one receiver: the checkout form asks PayPal to pay it, an IPN must
// name it, and GET /api/v1/settings shows it. Real IPN post-back against a fake PayPal answering VERIFIED.
const CONFIGURED = 'old-merchant@cellport.example';
const OVERRIDE = 'new-merchant@cellport.example';

let paypalVerify: FakeHttpServer;
let env: Record<string, string>;
beforeAll(async () => {
  paypalVerify = await startFakeHttpServer(() => ({ body: 'VERIFIED' }));
  env = { PAYPAL_MODE: 'sandbox', PAYPAL_RECEIVER_EMAIL: CONFIGURED, PAYPAL_IPN_URL: `${paypalVerify.url}/cgi-bin/webscr` };
});
afterAll(async () => { await paypalVerify.close(); });

const settingsReceiver = async (t: TestApp) => (await t.app.inject({ method: 'GET', url: '/api/v1/settings' })).json().PAYPAL_RECEIVER_EMAIL as string;
const override = (t: TestApp, admin: Signed, value: string | null) =>
  call(t, admin.cookie, 'PATCH', '/api/v1/admin/settings', { paypalReceiverEmail: value });

async function pending(t: TestApp, cookie: string) {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/paypal/pending', ...json(cookie, { amount: '10' }) });
  expect(res.statusCode).toBe(200);
  const body = res.json() as { data: { client_secret: string }; form: { fields: Record<string, string> } };
  return { secret: body.data.client_secret, business: body.form.fields.business };
}
const completedIpn = (t: TestApp, custom: string, txn: string, receiver: string) => t.app.inject({
  method: 'POST', url: '/api/v1/payment/paypal/ipn', headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams({
    txn_type: 'web_accept', txn_id: txn, payment_status: 'Completed', mc_gross: '10.00', mc_currency: 'USD', receiver_email: receiver, business: receiver, custom,
  }).toString(),
});

describe('PayPal receiver: the console override is the effective receiver', () => {
  let t: TestApp;
  let admin: Signed;
  beforeEach(async () => { t = await buildTestApp(env); admin = await signedIn(t); });
  afterEach(async () => { await t.close(); });

  it('without an override the configured receiver is used everywhere', async () => {
    const c = await createCustomer(t);
    expect(await settingsReceiver(t)).toBe(CONFIGURED);
    const p = await pending(t, c.cookie);
    expect(p.business).toBe(CONFIGURED);
    await completedIpn(t, p.secret, 'RCV-CFG', CONFIGURED);
    expect(await usdtBalance(t, c.id)).toBe(10_000_000n);
  });

  it('after an override the form, the settings and the IPN check use it; the old receiver credits nothing; clearing it restores the config', async () => {
    const c = await createCustomer(t);
    expect(await settingsReceiver(t)).toBe(CONFIGURED); // read (and cached) before the change
    const res = await override(t, admin, OVERRIDE);
    expect(res.statusCode).toBe(200);
    expect(res.json().paypal).toMatchObject({ receiverEmail: OVERRIDE, receiverOverridden: true });
    expect(await settingsReceiver(t)).toBe(OVERRIDE);

    const p = await pending(t, c.cookie);
    expect(p.business).toBe(OVERRIDE);
    expect((await completedIpn(t, p.secret, 'RCV-OLD', CONFIGURED)).statusCode).toBe(200);
    expect(await usdtBalance(t, c.id)).toBe(0n);
    await completedIpn(t, p.secret, 'RCV-NEW', OVERRIDE);
    expect(await usdtBalance(t, c.id)).toBe(10_000_000n);

    expect((await override(t, admin, null)).json().paypal).toMatchObject({ receiverEmail: CONFIGURED, receiverOverridden: false });
    expect(await settingsReceiver(t)).toBe(CONFIGURED);
    expect((await pending(t, c.cookie)).business).toBe(CONFIGURED);
  });
});

describeOnPostgres('PayPal receiver across instances', () => {
  it('a change made on one instance reaches the other through the bus', async () => {
    const one = await buildTestApp(env);
    const two = await buildCountingApp(env, one);
    try {
      const admin = await signedIn(one);
      expect(await settingsReceiver(two)).toBe(CONFIGURED); // cached on instance two
      const changed = new Promise<void>((resolve) => { two.ctx.bus.on('settings:changed', () => resolve()); });
      expect((await override(one, admin, OVERRIDE)).statusCode).toBe(200);
      await changed;
      expect(await settingsReceiver(two)).toBe(OVERRIDE);
      const c = await createCustomer(two);
      const p = await pending(two, c.cookie);
      expect(p.business).toBe(OVERRIDE);
      await completedIpn(two, p.secret, 'RCV-OTHER', CONFIGURED);
      expect(await usdtBalance(two, c.id)).toBe(0n);
    } finally {
      await two.close();
      await one.close();
    }
  });
});
