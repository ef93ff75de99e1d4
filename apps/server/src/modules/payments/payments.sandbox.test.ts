import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeHttpServer, type FakeHttpServer } from '../../../test/fake-http.js';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { expectLedgerMatchesBalances } from '../ledger/ledger.test-helpers.js';
import { createCustomer, json, seedTestCatalog, usdtBalance } from '../../../test/fixtures.js';

// The sandbox defaults: public sandbox crypto keys (never scanned), the offline card provider, PayPal sandbox with
// offline completion. The BTC rate comes from a fake ticker on 127.0.0.1.
let t: TestApp;
let ticker: FakeHttpServer;
let catalog: Awaited<ReturnType<typeof seedTestCatalog>>;

beforeAll(async () => {
  ticker = await startFakeHttpServer(() => ({ body: { USD: { last: 60000.5 } } }));
  t = await buildTestApp({ RATE_TICKER_URL: `${ticker.url}/ticker` });
  catalog = await seedTestCatalog(t);
});
afterAll(async () => { await t.close(); await ticker.close(); });
afterEach(async () => { await expectLedgerMatchesBalances(t.ctx.db); });

describe('settings, rates and account', () => {
  it('GET /settings is public and describes the sandbox providers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/settings' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      PAYPAL_MODE: 'sandbox', card: { provider: 'sandbox', publishableKey: null }, crypto: { mode: 'sandbox' }, simulatePayments: true,
    });
  });

  it('GET /exchange-rates serves the ticker rate as a decimal string', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/exchange-rates' });
    expect(res.json()).toEqual({ btc: '60000.5' });
  });

  it('GET /account carries a stable deposit address per coin, different per customer', async () => {
    const a = await createCustomer(t);
    const b = await createCustomer(t);
    const first = (await t.app.inject({ method: 'GET', url: '/api/v1/account', ...json(a.cookie) })).json();
    const again = (await t.app.inject({ method: 'GET', url: '/api/v1/account', ...json(a.cookie) })).json();
    const other = (await t.app.inject({ method: 'GET', url: '/api/v1/account', ...json(b.cookie) })).json();
    expect(first.btc.address).toMatch(/^(bc|tb)1q/);
    expect(first.usdt.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(again).toEqual(first);
    expect(other.btc.address).not.toBe(first.btc.address);
    expect(other.usdt.address).not.toBe(first.usdt.address);
  });
});

describe('crypto (sandbox)', () => {
  it('a USDT top-up: pending, active, simulated → balance, completed payment, numbered invoice', async () => {
    const c = await createCustomer(t);
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/payment/crypto/pending', ...json(c.cookie, { amount: '12.50', provider: 'crypto', coin: 'usdt' }) });
    expect(created.statusCode).toBe(200);
    const p = created.json().data;
    expect(p).toMatchObject({ provider: 'crypto', kind: 'topup', status: 'pending', coin: 'usdt', amount: '12500000', data: { amount: '12500000', amountBTC: null, coin: 'usdt' } });
    const account = (await t.app.inject({ method: 'GET', url: '/api/v1/account', ...json(c.cookie) })).json();
    expect(p.data.address).toBe(account.usdt.address);
    const active = (await t.app.inject({ method: 'GET', url: '/api/v1/pending-crypto-payment-active', ...json(c.cookie) })).json();
    expect(active.data._id).toBe(p._id);

    const sim = await t.app.inject({ method: 'POST', url: `/api/v1/pending-payments/${p._id}/simulate`, ...json(c.cookie) });
    expect(sim.statusCode).toBe(200);
    expect(sim.json().data.status).toBe('completed');
    expect(await usdtBalance(t, c.id)).toBe(12_500_000n);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/pending-crypto-payment-active', ...json(c.cookie) })).json()).toEqual({ data: null });
    const payments = (await t.app.inject({ method: 'GET', url: '/api/v1/payments', ...json(c.cookie) })).json();
    expect(payments).toEqual([expect.objectContaining({ _id: p._id, provider: 'crypto', kind: 'topup', amount: '12500000', status: 'completed' })]);
    const invoices = (await t.app.inject({ method: 'GET', url: '/api/v1/invoices', ...json(c.cookie) })).json().data;
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ paymentId: p._id, provider: 'crypto', amount: '12500000', currency: 'USD' });
    expect(invoices[0]).toMatchObject({ document: 'receipt' }); // a top-up is acknowledged by a receipt (decision 038)
    expect(invoices[0].number).toMatch(/^CP-R-\d{4}-\d{6}$/);
    const pdf = await t.app.inject({ method: 'GET', url: `/api/v1/invoices/${invoices[0]._id}.pdf`, ...json(c.cookie) });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // A second simulate of a completed payment changes nothing.
    const again = await t.app.inject({ method: 'POST', url: `/api/v1/pending-payments/${p._id}/simulate`, ...json(c.cookie) });
    expect(again.statusCode).toBe(409);
    expect(await usdtBalance(t, c.id)).toBe(12_500_000n);
  });

  it('a BTC purchase locks the satoshi amount from the rate (rounded up) and allocates the ports when paid', async () => {
    const c = await createCustomer(t);
    const tariff = catalog.dedicatedMonth;
    const res = await t.app.inject({
      method: 'POST', url: '/api/v1/payment/crypto/pending',
      ...json(c.cookie, { amount: '1', provider: 'crypto', coin: 'btc', tariff_id: tariff.id, country_id: catalog.usId, isShared: false, rotationInterval: 0, modemCount: 2 }),
    });
    expect(res.statusCode).toBe(200);
    const p = res.json().data;
    const price = tariff.price * 2n;
    expect(p.amount).toBe(price.toString()); // the server's price, not the client's "1"
    const rate = 60_000_500_000n; // micro-USD per BTC
    const sat = BigInt(p.data.amountBTC);
    expect(sat).toBe((price * 100_000_000n + rate - 1n) / rate);
    expect((sat * rate) / 100_000_000n >= price).toBe(true);
    expect(p.country).toEqual({ country_code: 'US' });
    expect(p.tariffName).toEqual(tariff.names);

    await t.app.inject({ method: 'POST', url: `/api/v1/pending-payments/${p._id}/simulate`, ...json(c.cookie) });
    const ports = (await t.app.inject({ method: 'GET', url: '/api/v1/modems', ...json(c.cookie) })).json();
    expect(ports).toHaveLength(2);
    const payments = (await t.app.inject({ method: 'GET', url: '/api/v1/payments', ...json(c.cookie) })).json();
    expect(payments[0]).toMatchObject({ _id: p._id, provider: 'crypto', kind: 'purchase', amount: price.toString(), modemCount: 2 });
    expect(await usdtBalance(t, c.id)).toBe(0n);
  });

  it('a renewal basket paid by crypto extends the ports', async () => {
    const c = await createCustomer(t, 100);
    const bought = await t.app.inject({
      method: 'POST', url: '/api/v1/payment/balance/buy',
      ...json(c.cookie, { tariff_id: catalog.dedicatedWeek.id, country_id: catalog.usId, isShared: false, rotationInterval: 0, modemCount: 1 }),
    });
    expect(bought.statusCode).toBe(200);
    const port = bought.json().data.modems[0];
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/crypto/pending', ...json(c.cookie, { provider: 'crypto', coin: 'usdt', basket: { [port._id]: { periods: 2 } } }) });
    expect(res.statusCode).toBe(200);
    const p = res.json().data;
    expect(p).toMatchObject({ kind: 'renewal', amount: (catalog.dedicatedWeek.price * 2n).toString(), modemNames: [port.modem_name] });
    const before = await usdtBalance(t, c.id);
    await t.app.inject({ method: 'POST', url: `/api/v1/pending-payments/${p._id}/simulate`, ...json(c.cookie) });
    const after = (await t.app.inject({ method: 'GET', url: '/api/v1/modems', ...json(c.cookie) })).json()[0];
    expect(new Date(after.expiresAt).getTime() - new Date(port.expiresAt).getTime()).toBe(14 * 86_400_000);
    expect(await usdtBalance(t, c.id)).toBe(before);
  });

  it('a new pending crypto payment replaces the previous one; another customer cannot see, cancel or simulate it', async () => {
    const c = await createCustomer(t);
    const other = await createCustomer(t);
    const first = (await t.app.inject({ method: 'POST', url: '/api/v1/payment/crypto/pending', ...json(c.cookie, { amount: '5', provider: 'crypto', coin: 'usdt' }) })).json().data;
    const second = (await t.app.inject({ method: 'POST', url: '/api/v1/payment/crypto/pending', ...json(c.cookie, { amount: '6', provider: 'crypto', coin: 'usdt' }) })).json().data;
    const pending = (await t.app.inject({ method: 'GET', url: '/api/v1/pending-payments', ...json(c.cookie) })).json().data;
    expect(pending.map((x: { _id: string }) => x._id)).toEqual([second._id]);
    expect(first._id).not.toBe(second._id);

    expect((await t.app.inject({ method: 'GET', url: '/api/v1/pending-payments', ...json(other.cookie) })).json().data).toEqual([]);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/pending-payments/${second._id}`, ...json(other.cookie) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/pending-payments/${second._id}/simulate`, ...json(other.cookie) })).statusCode).toBe(404);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/pending-payments/${second._id}`, ...json(c.cookie) });
    expect(del.json()).toEqual({ error: null });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/pending-payments', ...json(c.cookie) })).json().data).toEqual([]);
  });

  it('expires an unpaid pending payment after 60 minutes (durable job)', async () => {
    const c = await createCustomer(t);
    const p = (await t.app.inject({ method: 'POST', url: '/api/v1/payment/crypto/pending', ...json(c.cookie, { amount: '5', provider: 'crypto', coin: 'usdt' }) })).json().data;
    await t.app.jobs.runDueJobs(new Date(Date.now() + 59 * 60_000));
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/pending-crypto-payment-active', ...json(c.cookie) })).json().data?._id).toBe(p._id);
    await t.app.jobs.runDueJobs(new Date(Date.now() + 61 * 60_000));
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/pending-crypto-payment-active', ...json(c.cookie) })).json().data).toBeNull();
    const row = await t.ctx.db.selectFrom('payment_orders').select('status').where('id', '=', p._id).executeTakeFirstOrThrow();
    expect(row.status).toBe('expired');
  });

  it('malformed bodies answer 4xx, never 5xx', async () => {
    const c = await createCustomer(t);
    const crypto = await t.app.inject({ method: 'POST', url: '/api/v1/payment/crypto/pending', ...json(c.cookie, { coin: 'doge', amount: '5' }) });
    expect(crypto.statusCode).toBe(400);
    const bodies = [
      { coin: 'usdt', amount: '-5' }, { coin: 'usdt', amount: 'abc' }, { coin: 'usdt' },
      { coin: 'usdt', amount: '0.5' }, { coin: 'usdt', amount: '5', basket: { 'not-a-uuid': { periods: 1 } } },
      { coin: 'usdt', tariff_id: '00000000-0000-4000-8000-000000000000' }, [], 'x', null,
    ];
    for (const body of bodies) {
      for (const url of ['/api/v1/payment/crypto/pending', '/api/v1/payment/paypal/pending', '/api/v1/payment/stripe/create-payment-intent']) {
        const res = await t.app.inject({ method: 'POST', url, headers: { cookie: c.cookie, origin: 'http://localhost:3000', 'content-type': 'application/json' }, payload: JSON.stringify(body) });
        expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBeLessThan(500);
      }
    }
    for (const url of ['/api/v1/payment/stripe/webhook', '/api/v1/payment/paypal/ipn']) {
      for (const [type, payload] of [['application/json', '{"x":'], ['application/x-www-form-urlencoded', '%%%'], ['text/plain', 'hi'], ['application/json', '']] as const) {
        const res = await t.app.inject({ method: 'POST', url, headers: { 'content-type': type }, payload });
        // A garbled IPN for no payment of ours is acknowledged (200, logged) so PayPal stops resending it.
        if (url.endsWith('webhook')) expect(res.statusCode, `${url} ${type} ${payload}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${url} ${type} ${payload}`).toBeLessThan(500);
      }
    }
  });
});

describe('card (sandbox provider)', () => {
  it('tops up with 4242…, declines 4000…0002, and credits only once', async () => {
    const c = await createCustomer(t);
    const intent = await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/create-payment-intent', ...json(c.cookie, { amount: 2500 }) });
    expect(intent.statusCode).toBe(200);
    const { payment_intent, email } = intent.json();
    expect(email).toMatch(/@test\.local$/);
    const declined = await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/sandbox/confirm', ...json(c.cookie, { clientSecret: payment_intent.client_secret, cardNumber: '4000 0000 0000 0002', expiry: '12/34', cvc: '123' }) });
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toEqual({ error: 'Your card was declined.', code: 'CARD_DECLINED' });
    expect(await usdtBalance(t, c.id)).toBe(0n);
    const other = await createCustomer(t);
    const foreign = await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/sandbox/confirm', ...json(other.cookie, { clientSecret: payment_intent.client_secret, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' }) });
    expect(foreign.statusCode).toBe(404);
    const ok = await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/sandbox/confirm', ...json(c.cookie, { clientSecret: payment_intent.client_secret, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' }) });
    expect(ok.json()).toEqual({ status: 'succeeded' });
    expect(await usdtBalance(t, c.id)).toBe(25_000_000n);
    const twice = await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/sandbox/confirm', ...json(c.cookie, { clientSecret: payment_intent.client_secret, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' }) });
    expect(twice.statusCode).toBe(409);
    expect(await usdtBalance(t, c.id)).toBe(25_000_000n);
    const payments = (await t.app.inject({ method: 'GET', url: '/api/v1/payments', ...json(c.cookie) })).json();
    expect(payments[0]).toMatchObject({ provider: 'card', kind: 'topup', amount: '25000000' });
  });

  it('a purchase paid by card allocates the ports (the server prices it, not the client)', async () => {
    const c = await createCustomer(t);
    const tariff = catalog.dedicatedWeek;
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/create-payment-intent', ...json(c.cookie, { amount: 1, tariff_id: tariff.id, country_id: catalog.usId, isShared: false, rotationInterval: 0, modemCount: 1 }) });
    expect(res.statusCode).toBe(200);
    const secret = res.json().payment_intent.client_secret;
    await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/sandbox/confirm', ...json(c.cookie, { clientSecret: secret, cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' }) });
    const ports = (await t.app.inject({ method: 'GET', url: '/api/v1/modems', ...json(c.cookie) })).json();
    expect(ports).toHaveLength(1);
    const cents = (tariff.price + 9_999n) / 10_000n;
    expect(await usdtBalance(t, c.id)).toBe(cents * 10_000n - tariff.price);
  });

  it('a subscription is offered only for monthly recurring tariffs', async () => {
    const c = await createCustomer(t);
    const week = await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/create-subscription', ...json(c.cookie, { tariff_id: catalog.dedicatedWeek.id, country_id: catalog.usId, isShared: false, rotationInterval: 0, modemCount: 1 }) });
    expect(week.statusCode).toBe(200);
    expect(week.json()).toMatchObject({ clientSecret: null, error: expect.any(String) });
  });
});

describe('PayPal (sandbox, offline completion)', () => {
  it('creates the record and the spec §7 form, and the simulated IPN credits once', async () => {
    const c = await createCustomer(t);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/paypal/pending', ...json(c.cookie, { amount: '50' }) });
    expect(res.statusCode).toBe(200);
    const { data, form } = res.json();
    expect(data).toMatchObject({ provider: 'Paypal', amount: '50000000', client_secret: `paypal_${data._id}`, tariff_id: null });
    expect(form.fields).toMatchObject({
      cmd: '_xclick', item_number: '1', quantity: '1', amount: '50.00', no_shipping: '1', custom: data.client_secret,
      currency_code: 'USD', lc: 'US', return: `http://localhost:3000/thank-you-for-order?order=${data._id}`, notify_url: 'http://localhost:3000/api/v1/payment/paypal/ipn',
    });
    const pending = (await t.app.inject({ method: 'GET', url: '/api/v1/pending-payments', ...json(c.cookie) })).json().data;
    expect(pending).toEqual([expect.objectContaining({ _id: data._id, provider: 'paypal' })]);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/pending-payments/${data._id}/simulate`, ...json(c.cookie) })).statusCode).toBe(200);
    expect(await usdtBalance(t, c.id)).toBe(50_000_000n);
  });

  it('the return page can read the order it comes back for: pending until the IPN credits it, then completed; nobody else can', async () => {
    const c = await createCustomer(t);
    const { data } = (await t.app.inject({ method: 'POST', url: '/api/v1/payment/paypal/pending', ...json(c.cookie, { amount: '12.5' }) })).json();
    const order = (cookie: string, reference = data._id, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: `/api/v1/payment/orders/${reference}`, ...json(cookie, undefined, headers) });
    expect((await order(c.cookie)).json().data).toMatchObject({ _id: data._id, status: 'pending', amount: '12500000', kind: 'topup' });
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/pending-payments/${data._id}/simulate`, ...json(c.cookie) })).statusCode).toBe(200);
    expect((await order(c.cookie)).json().data).toMatchObject({ _id: data._id, status: 'completed', received: '12500000' });

    const other = await createCustomer(t);
    expect((await order(other.cookie)).statusCode).toBe(404);
    expect((await order(c.cookie, 'pi_sandbox_unknown')).statusCode).toBe(404);
    expect((await order(c.cookie, 'not a reference')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/payment/orders/${data._id}` })).statusCode).toBe(401);
  });

  it('finds a card payment by the intent id the browser holds', async () => {
    const c = await createCustomer(t);
    const intent = (await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/create-payment-intent', ...json(c.cookie, { amount: 700 }) })).json();
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/payment/orders/${intent.payment_intent.id}`, ...json(c.cookie) });
    expect(res.json().data).toMatchObject({ status: 'pending', provider: 'card', amount: '7000000' });
  });
});
