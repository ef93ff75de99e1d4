import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createCustomer, json } from '../../../test/fixtures.js';
import { SANDBOX_BTC_USD } from './payments-runtime.js';

// Offline (no ticker answers) on the sandbox keys, Bitcoin payments still work at the fixed sandbox rate.
describe('bitcoin payments with no reachable rate ticker (sandbox keys)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Port 9 (discard) refuses the connection at once: the ticker is unreachable.
    t = await buildTestApp({ RATE_TICKER_URL: 'http://127.0.0.1:9/ticker' });
  });
  afterAll(async () => { await t.close(); });

  it('prices a BTC top-up at the sandbox rate instead of answering 503', async () => {
    const c = await createCustomer(t);
    const res = await t.app.inject({
      method: 'POST', url: '/api/v1/payment/crypto/pending',
      ...json(c.cookie, { amount: '50', provider: 'crypto', coin: 'btc' }),
    });
    expect(res.statusCode).toBe(200);
    const rate = BigInt(SANDBOX_BTC_USD) * 1_000_000n;
    expect(BigInt(res.json().data.data.amountBTC)).toBe((50_000_000n * 100_000_000n + rate - 1n) / rate);
    // The payment says which rate it was locked at: the sandbox's fixed one (issue 14, item 12).
    expect(res.json().data.data.rate).toMatchObject({ usd: SANDBOX_BTC_USD, sandbox: true });
  });
});
