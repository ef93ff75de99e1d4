import { createHmac } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeHttpServer, type FakeHttpServer, type FakeReply } from '../../../test/fake-http.js';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { SANDBOX_TRON_XPUB } from '../../integrations/tron/sandbox-key.js';
import { MAINNET_USDT_CONTRACT } from '../../integrations/tron/scan-usdt-deposits.js';
import { startFakeStripeApi, type FakeStripeApi, type RecordedStripeRequest } from '../../integrations/stripe/testing/fake-stripe-api.js';
import { expectLedgerMatchesBalances } from '../ledger/ledger.test-helpers.js';
import { createCustomer, json, seedTestCatalog, usdtBalance } from '../../../test/fixtures.js';

// Live mode: the REAL adapters (Esplora, TronGrid, Stripe SDK + webhook signatures, PayPal IPN post-back) against
// small fake servers on 127.0.0.1. Account 1 of the test mnemonic (not a sandbox key) so the scanners really scan.
const LIVE_TEST_ZPUB = 'zpub6rFR7y4Q2AijF6Gk1bofHLs1d66hKFamhXWdWBup1Em25wfabZqkDqvaieV63fDQFaYmaatCG7jVNUpUiM2hAMo6SAVHcrUpSnHDpNzucB7';
// A valid non-sandbox account xpub for TRON: the sandbox key's point with another chain code (as in usdt-adapter.test.ts).
const sandboxTron = HDKey.fromExtendedKey(SANDBOX_TRON_XPUB);
const LIVE_TEST_TRON_XPUB = new HDKey({
  depth: 3, index: sandboxTron.index, parentFingerprint: sandboxTron.parentFingerprint,
  chainCode: new Uint8Array(32).fill(9), publicKey: sandboxTron.publicKey!,
}).publicExtendedKey;
const WEBHOOK_SECRET = 'whsec_live_test_secret';
const PAYPAL_RECEIVER = 'merchant@cellport.example';
const TIP = 900_000;
const CONCURRENT = !!process.env.TEST_DATABASE_URL;
const deliveries = CONCURRENT ? '100× concurrently (PostgreSQL)' : '100× sequentially (PGlite; set TEST_DATABASE_URL for the concurrent run)';

/** Delivers the same thing 100 times: all at once on PostgreSQL, one after another on PGlite (one connection). */
async function hundredTimes<T>(fn: () => Promise<T>): Promise<T[]> {
  if (CONCURRENT) return Promise.all(Array.from({ length: 100 }, fn));
  const out: T[] = [];
  for (let i = 0; i < 100; i++) out.push(await fn());
  return out;
}

let t: TestApp;
let esplora: FakeHttpServer;
let trongrid: FakeHttpServer;
let ticker: FakeHttpServer;
let paypalIpn: FakeHttpServer;
let stripe: FakeStripeApi;
let catalog: Awaited<ReturnType<typeof seedTestCatalog>>;
let btcHistory: Record<string, unknown[]> = {};
let tronHistory: Record<string, unknown[]> = {};
let paypalAnswer = 'VERIFIED';
let intentSeq = 0;
let warn: ReturnType<typeof vi.spyOn>;

function esploraRoute(url: URL): FakeReply {
  if (url.pathname === '/api/blocks/tip/height') return { body: String(TIP) };
  const m = /^\/api\/address\/([^/]+)\/txs/.exec(url.pathname);
  if (m) return { body: url.pathname.includes('/chain/') ? [] : (btcHistory[m[1]!] ?? []) };
  return { status: 404, body: 'Not found' };
}
const btcTx = (id: string, address: string, value: bigint, confirmations: number) => ({
  txid: id.repeat(64).slice(0, 64), version: 2, locktime: 0, vin: [], size: 200, weight: 560, fee: 1000,
  vout: [{ scriptpubkey: '0014', scriptpubkey_type: 'v0_p2wpkh', scriptpubkey_address: address, value: Number(value) }],
  status: confirmations > 0 ? { confirmed: true, block_height: TIP - confirmations + 1, block_hash: '0'.repeat(64), block_time: 1 } : { confirmed: false },
});
const usdtTransfer = (id: string, to: string, value: bigint, token = MAINNET_USDT_CONTRACT) => ({
  transaction_id: id.repeat(64).slice(0, 64),
  token_info: { symbol: 'USDT', address: token, decimals: 6, name: 'Tether USD' },
  block_timestamp: 1_713_571_767_000, from: 'TYJPRrdB5APNeRs4R7fYZSwW3TcrTKw2gx', to, type: 'Transfer', value: value.toString(),
});

function stripeRoute(r: RecordedStripeRequest) {
  switch (`${r.method} ${r.path}`) {
    case 'GET /v1/customers': return { body: { object: 'list', url: '/v1/customers', has_more: false, data: [] } };
    case 'POST /v1/customers': return { body: { id: `cus_${r.form.get('metadata[user_id]')?.slice(0, 8)}`, object: 'customer', email: r.form.get('email') } };
    case 'POST /v1/payment_intents': {
      const id = `pi_live${++intentSeq}`;
      return { body: { id, object: 'payment_intent', amount: Number(r.form.get('amount')), client_secret: `${id}_secret_x`, status: 'requires_payment_method' } };
    }
    default: return undefined;
  }
}

function signedWebhook(event: object, secret = WEBHOOK_SECRET) {
  const body = JSON.stringify(event);
  const ts = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex');
  return { method: 'POST' as const, url: '/api/v1/payment/stripe/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': `t=${ts},v1=${v1}` }, payload: body };
}
const intentSucceeded = (eventId: string, intent: string, cents: number, metadata: Record<string, string>, currency = 'usd') => ({
  id: eventId, object: 'event', type: 'payment_intent.succeeded',
  data: { object: { id: intent, object: 'payment_intent', amount: cents, amount_received: cents, currency, customer: null, metadata } },
});

beforeAll(async () => {
  esplora = await startFakeHttpServer(esploraRoute);
  trongrid = await startFakeHttpServer((url) => {
    const m = /^\/v1\/accounts\/([^/]+)\/transactions\/trc20$/.exec(url.pathname);
    return m ? { body: { data: tronHistory[m[1]!] ?? [], success: true, meta: { at: 1, page_size: 1 } } } : { status: 404, body: {} };
  });
  ticker = await startFakeHttpServer(() => ({ body: { USD: { last: 50000 } } }));
  paypalIpn = await startFakeHttpServer(() => ({ body: paypalAnswer }));
  stripe = await startFakeStripeApi(stripeRoute);
  t = await buildTestApp({
    BTC_XPUB: LIVE_TEST_ZPUB, ESPLORA_URL: `${esplora.url}/api/`, BTC_CONFIRMATIONS: '2',
    TRON_XPUB: LIVE_TEST_TRON_XPUB, TRONGRID_URL: trongrid.url, USDT_CONTRACT: MAINNET_USDT_CONTRACT,
    RATE_TICKER_URL: `${ticker.url}/ticker`,
    STRIPE_SECRET_KEY: 'sk_test_live_wiring', STRIPE_PUBLISHABLE_KEY: 'pk_test_live_wiring', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stripe.url,
    PAYPAL_MODE: 'sandbox', PAYPAL_RECEIVER_EMAIL: PAYPAL_RECEIVER, PAYPAL_IPN_URL: `${paypalIpn.url}/cgi-bin/webscr`,
  });
  catalog = await seedTestCatalog(t);
}, 120_000);
afterAll(async () => {
  await t.close();
  await Promise.all([esplora.close(), trongrid.close(), ticker.close(), paypalIpn.close(), stripe.close()]);
});
beforeEach(() => {
  btcHistory = {};
  tronHistory = {};
  paypalAnswer = 'VERIFIED';
  warn = vi.spyOn(t.ctx.log, 'warn');
});
afterEach(async () => {
  warn.mockRestore();
  await expectLedgerMatchesBalances(t.ctx.db);
});

const logs = () => warn.mock.calls.map((c) => String(c[1] ?? c[0]));

describe('settings in live mode', () => {
  it('reports live crypto, Stripe with its publishable key, and no simulation', async () => {
    const res = (await t.app.inject({ method: 'GET', url: '/api/v1/settings' })).json();
    expect(res).toMatchObject({ crypto: { mode: 'live' }, card: { provider: 'stripe', publishableKey: 'pk_test_live_wiring' }, PAYPAL_RECEIVER_EMAIL: PAYPAL_RECEIVER, simulatePayments: false });
  });
});

describe('BTC deposits (Esplora)', () => {
  async function pendingBtc(cookie: string, body: object) {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/crypto/pending', ...json(cookie, { provider: 'crypto', coin: 'btc', ...body }) });
    expect(res.statusCode).toBe(200);
    return res.json().data as { _id: string; data: { address: string; amountBTC: string }; amount: string };
  }

  it('an unconfirmed deposit credits nothing and is logged; once confirmed the watcher job credits and completes', async () => {
    const c = await createCustomer(t);
    const p = await pendingBtc(c.cookie, { amount: '30' });
    expect(p.data.address).toMatch(/^bc1q/);
    btcHistory[p.data.address] = [btcTx('a', p.data.address, BigInt(p.data.amountBTC), 1)];
    const info = vi.spyOn(t.ctx.log, 'info');
    await t.app.jobs.runDueJobs(new Date(Date.now() + 31_000));
    expect(await usdtBalance(t, c.id)).toBe(0n);
    expect(info.mock.calls.some((x) => String(x[1]).includes('not confirmed'))).toBe(true);
    info.mockRestore();
    // The watcher re-scheduled itself; the deposit is now 2 blocks deep.
    btcHistory[p.data.address] = [btcTx('a', p.data.address, BigInt(p.data.amountBTC), 2)];
    await t.app.jobs.runDueJobs(new Date(Date.now() + 62_000));
    expect(await usdtBalance(t, c.id)).toBe(30_000_000n);
    const order = await t.ctx.db.selectFrom('payment_orders').select('status').where('id', '=', p._id).executeTakeFirstOrThrow();
    expect(order.status).toBe('completed');
    const btc = await t.ctx.db.selectFrom('balances').select('amount').where('user_id', '=', c.id).where('coin', '=', 'btc').executeTakeFirstOrThrow();
    expect(BigInt(btc.amount)).toBe(0n); // converted at the locked rate
  });

  it(`one deposit scanned ${deliveries} credits once`, async () => {
    const c = await createCustomer(t);
    const p = await pendingBtc(c.cookie, { amount: '20' });
    btcHistory[p.data.address] = [btcTx('b', p.data.address, BigInt(p.data.amountBTC), 6)];
    await hundredTimes(() => t.app.payments.crypto.scanNow(p._id));
    expect(await usdtBalance(t, c.id)).toBe(20_000_000n);
    const entries = await t.ctx.db.selectFrom('ledger_entries').select('reference').where('user_id', '=', c.id).where('kind', '=', 'crypto_deposit').execute();
    expect(entries).toHaveLength(1);
  }, 120_000);

  it('an underpayment is credited to the BTC balance and the payment stays pending until topped up', async () => {
    const c = await createCustomer(t);
    const p = await pendingBtc(c.cookie, { amount: '40' });
    const sat = BigInt(p.data.amountBTC);
    btcHistory[p.data.address] = [btcTx('c', p.data.address, sat / 2n, 3)];
    await t.app.payments.crypto.scanNow(p._id);
    const row = await t.ctx.db.selectFrom('payment_orders').select(['status', 'received']).where('id', '=', p._id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'pending', received: sat / 2n });
    expect(await usdtBalance(t, c.id)).toBe(0n);
    btcHistory[p.data.address]!.push(btcTx('d', p.data.address, sat - sat / 2n, 3));
    await t.app.payments.crypto.scanNow(p._id);
    expect(await usdtBalance(t, c.id)).toBe(40_000_000n);
  });

  it('a purchase paid by BTC allocates the ports', async () => {
    const c = await createCustomer(t);
    const tariff = catalog.dedicatedWeek;
    const p = await pendingBtc(c.cookie, { tariff_id: tariff.id, country_id: catalog.usId, isShared: false, rotationInterval: 0, modemCount: 1 });
    btcHistory[p.data.address] = [btcTx('e', p.data.address, BigInt(p.data.amountBTC), 2)];
    await t.app.payments.crypto.scanNow(p._id);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/modems', ...json(c.cookie) })).json()).toHaveLength(1);
  });
});

describe('USDT deposits (TronGrid)', () => {
  async function pendingUsdt(cookie: string, body: object) {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/crypto/pending', ...json(cookie, { provider: 'crypto', coin: 'usdt', ...body }) });
    expect(res.statusCode).toBe(200);
    return res.json().data as { _id: string; data: { address: string }; amount: string };
  }

  it(`one transfer scanned ${deliveries} credits once`, async () => {
    const c = await createCustomer(t);
    const p = await pendingUsdt(c.cookie, { amount: '15' });
    tronHistory[p.data.address] = [usdtTransfer('1', p.data.address, 15_000_000n)];
    await hundredTimes(() => t.app.payments.crypto.scanNow(p._id));
    expect(await usdtBalance(t, c.id)).toBe(15_000_000n);
  }, 120_000);

  it('a transfer of a look-alike token contract credits nothing and is logged', async () => {
    const c = await createCustomer(t);
    const p = await pendingUsdt(c.cookie, { amount: '15' });
    tronHistory[p.data.address] = [usdtTransfer('2', p.data.address, 15_000_000n, 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf')];
    await t.app.payments.crypto.scanNow(p._id);
    expect(await usdtBalance(t, c.id)).toBe(0n);
    expect(logs().length).toBeGreaterThan(0);
  });

  it('a renewal basket paid by USDT extends the ports', async () => {
    const c = await createCustomer(t, 100);
    const bought = (await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, { tariff_id: catalog.dedicatedWeek.id, country_id: catalog.usId, isShared: false, rotationInterval: 0, modemCount: 1 }) })).json();
    const port = bought.data.modems[0];
    const p = await pendingUsdt(c.cookie, { basket: { [port._id]: { days: 3 } } });
    tronHistory[p.data.address] = [usdtTransfer('3', p.data.address, BigInt(p.amount))];
    await t.app.payments.crypto.scanNow(p._id);
    const after = (await t.app.inject({ method: 'GET', url: '/api/v1/modems', ...json(c.cookie) })).json()[0];
    expect(new Date(after.expiresAt).getTime() - new Date(port.expiresAt).getTime()).toBe(3 * 86_400_000);
  });
});

describe('Stripe webhook (signed raw body)', () => {
  async function intent(cookie: string, body: object) {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/create-payment-intent', ...json(cookie, body) });
    expect(res.statusCode).toBe(200);
    const id = res.json().payment_intent.id as string;
    const order = await t.ctx.db.selectFrom('payment_orders').select(['id', 'user_id']).where('external_id', '=', id).executeTakeFirstOrThrow();
    return { id, orderId: order.id };
  }

  it(`payment_intent.succeeded delivered ${deliveries} credits once`, async () => {
    const c = await createCustomer(t);
    const pi = await intent(c.cookie, { amount: 4200 });
    const event = intentSucceeded('evt_once', pi.id, 4200, { orderId: pi.orderId, userId: c.id });
    const answers = await hundredTimes(() => t.app.inject(signedWebhook(event)));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(await usdtBalance(t, c.id)).toBe(42_000_000n);
  }, 120_000);

  it('a wrong signature or a foreign currency credits nothing and is logged', async () => {
    const c = await createCustomer(t);
    const pi = await intent(c.cookie, { amount: 1000 });
    const bad = await t.app.inject(signedWebhook(intentSucceeded('evt_bad', pi.id, 1000, { orderId: pi.orderId, userId: c.id }), 'whsec_attacker'));
    expect(bad.statusCode).toBe(400);
    const eur = await t.app.inject(signedWebhook(intentSucceeded('evt_eur', pi.id, 1000, { orderId: pi.orderId, userId: c.id }, 'eur')));
    expect(eur.statusCode).toBe(200);
    expect(await usdtBalance(t, c.id)).toBe(0n);
    expect(logs().some((m) => m.includes('signature'))).toBe(true);
    expect(logs().some((m) => m.includes('currency'))).toBe(true);
  });

  it('a purchase paid by card allocates the ports; a refund takes the money back once', async () => {
    const c = await createCustomer(t);
    const tariff = catalog.dedicatedWeek;
    const pi = await intent(c.cookie, { amount: 100, tariff_id: tariff.id, country_id: catalog.usId, isShared: false, rotationInterval: 0, modemCount: 1 });
    const cents = Number((tariff.price + 9_999n) / 10_000n);
    await t.app.inject(signedWebhook(intentSucceeded('evt_buy', pi.id, cents, { orderId: pi.orderId, userId: c.id })));
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/modems', ...json(c.cookie) })).json()).toHaveLength(1);
    const invoices = (await t.app.inject({ method: 'GET', url: '/api/v1/invoices', ...json(c.cookie) })).json().data;
    expect(invoices[0]).toMatchObject({ paymentId: pi.orderId, provider: 'card' });
  });
});

describe('PayPal IPN (raw body posted back for validation)', () => {
  async function pending(cookie: string, amount: string) {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/paypal/pending', ...json(cookie, { amount }) });
    expect(res.statusCode).toBe(200);
    return res.json().data as { _id: string; client_secret: string };
  }
  const ipn = (fields: Record<string, string>) => ({
    method: 'POST' as const, url: '/api/v1/payment/paypal/ipn',
    headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString(),
  });
  const completed = (custom: string, txn: string, gross: string, extra: Record<string, string> = {}) => ({
    txn_type: 'web_accept', txn_id: txn, payment_status: 'Completed', mc_gross: gross, mc_currency: 'USD',
    receiver_email: PAYPAL_RECEIVER, business: PAYPAL_RECEIVER, custom, ...extra,
  });

  it(`a Completed IPN delivered ${deliveries} credits once; the exact body is posted back`, async () => {
    const c = await createCustomer(t);
    const p = await pending(c.cookie, '25');
    paypalIpn.requests.length = 0;
    const answers = await hundredTimes(() => t.app.inject(ipn(completed(p.client_secret, 'TXN100', '25.00'))));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(await usdtBalance(t, c.id)).toBe(25_000_000n);
    expect(paypalIpn.requests.length).toBeGreaterThan(0);
  }, 120_000);

  it('a wrong receiver, amount or currency, or an INVALID answer, credits nothing and is logged', async () => {
    const c = await createCustomer(t);
    const p = await pending(c.cookie, '25');
    await t.app.inject(ipn(completed(p.client_secret, 'TXNR', '25.00', { receiver_email: 'thief@example.com', business: 'thief@example.com' })));
    await t.app.inject(ipn(completed(p.client_secret, 'TXNA', '2.50')));
    await t.app.inject(ipn(completed(p.client_secret, 'TXNC', '25.00', { mc_currency: 'EUR' })));
    paypalAnswer = 'INVALID';
    await t.app.inject(ipn(completed(p.client_secret, 'TXNI', '25.00')));
    expect(await usdtBalance(t, c.id)).toBe(0n);
    expect(logs().filter((m) => m.includes('PayPal IPN ignored'))).toHaveLength(4);
  });

  it('a refund debits once per txn_id', async () => {
    const c = await createCustomer(t);
    const p = await pending(c.cookie, '25');
    await t.app.inject(ipn(completed(p.client_secret, 'TXNPAY', '25.00')));
    const refund = { ...completed(p.client_secret, 'TXNREF', '-10.00'), payment_status: 'Refunded', parent_txn_id: 'TXNPAY' };
    await t.app.inject(ipn(refund));
    await t.app.inject(ipn(refund));
    expect(await usdtBalance(t, c.id)).toBe(15_000_000n);
  });
});
