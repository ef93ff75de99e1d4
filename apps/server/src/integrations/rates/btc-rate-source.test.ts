import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeHttpServer, type FakeHttpServer, type FakeReply } from '../../../test/fake-http.js';
import { BtcRateSource } from './btc-rate-source.js';

// Shaped like https://blockchain.info/ticker (other currencies trimmed).
const ticker = (last: unknown) => ({
  USD: { '15m': 64120.1, last, buy: 64120.1, sell: 64120.1, symbol: '$' },
  EUR: { '15m': 59000.2, last: 59000.2, buy: 59000.2, sell: 59000.2, symbol: '€' },
});

const logged: string[] = [];
const log = {
  warn: (details: object, message: string) => logged.push(`warn ${message}${'err' in details ? ' +err' : ''}`),
  info: (_details: object, message: string) => logged.push(`info ${message}`),
};

let server: FakeHttpServer;
let clock = 0;
const source = (extra: Partial<ConstructorParameters<typeof BtcRateSource>[0]> = {}) =>
  new BtcRateSource({ url: `${server.url}/ticker`, log, now: () => clock, ttlMs: 60_000, retryAfterFailureMs: 15_000, ...extra });
const reply = (r: FakeReply) => server.setHandler(() => r);

beforeAll(async () => {
  server = await startFakeHttpServer(() => ({ body: ticker(64123.45) }));
});
afterAll(() => server.close());
beforeEach(() => {
  clock = 1_000_000;
  logged.length = 0;
  server.requests.length = 0;
  reply({ body: ticker(64123.45) });
});

describe('BtcRateSource', () => {
  it('reads USD.last as a decimal string and integer micro-USD', async () => {
    const rate = await source().current();
    expect(rate).toEqual({ usd: '64123.45', microUsdPerBtc: 64_123_450_000n, fetchedAt: new Date(1_000_000) });
  });

  it('asks the upstream once per TTL however many callers there are', async () => {
    const rates = source();
    await Promise.all(Array.from({ length: 50 }, () => rates.current()));
    expect(server.requests).toHaveLength(1);
    clock += 59_000;
    reply({ body: ticker(65000) });
    expect((await rates.current())?.usd).toBe('64123.45');
    clock += 1_000;
    expect((await rates.current())?.usd).toBe('65000');
    expect(server.requests).toHaveLength(2);
  });

  it('keeps the last good rate when the ticker fails, and retries later', async () => {
    const rates = source();
    await rates.current();
    const failures: FakeReply[] = [
      { status: 503, body: 'down' },
      { body: '<html>' },
      { body: ticker('n/a') },
      { body: ticker(0) },
      { body: { EUR: { last: 1 } } },
    ];
    for (const failure of failures) {
      clock += 60_000;
      reply(failure);
      expect(await rates.current()).toMatchObject({ usd: '64123.45', microUsdPerBtc: 64_123_450_000n });
    }
    // One line when the source goes away, none for each further failure, and no error object (no stack).
    expect(logged).toEqual([expect.stringMatching(/^warn BTC rate source unavailable \(.+\); keeping the rate of 1970-01-01T00:16:40.000Z$/)]);
    // Within the retry pause no request is made; after it, a recovered ticker is used again.
    const before = server.requests.length;
    clock += 10_000;
    await rates.current();
    expect(server.requests).toHaveLength(before);
    clock += 5_000;
    reply({ body: ticker(66000.5) });
    expect((await rates.current())?.usd).toBe('66000.5');
    // And one line when it comes back.
    expect(logged).toHaveLength(2);
    expect(logged[1]).toBe('info BTC rate source is back: 66000.5 USD per BTC');
    // Failing again later is a new outage: one more line.
    clock += 60_000;
    reply({ status: 503, body: 'down' });
    await rates.current();
    expect(logged).toHaveLength(3);
    expect(logged[2]).toMatch(/^warn BTC rate source unavailable/);
  });

  it('offline from the start: one line, however many minutes it stays offline (issue 14, item 12)', async () => {
    const rates = new BtcRateSource({ url: 'http://127.0.0.1:1/ticker', log, now: () => clock, timeoutMs: 500 });
    for (let minute = 0; minute < 5; minute++) {
      await expect(rates.current()).resolves.toBeNull();
      clock += 60_000;
    }
    expect(logged).toEqual([expect.stringMatching(/^warn BTC rate source unavailable \(.+\); no rate until it answers$/)]);
  });

  it('returns null, never throws, before any good answer', async () => {
    reply({ status: 500, body: 'down' });
    await expect(source().current()).resolves.toBeNull();
    await expect(new BtcRateSource({ url: 'http://127.0.0.1:1/ticker', log, timeoutMs: 500 }).current()).resolves.toBeNull();
    expect(logged).toHaveLength(2);
    expect(logged.every((line) => line.startsWith('warn ') && !line.endsWith('+err'))).toBe(true);
  });

  it('gives up on a ticker that does not answer in time', async () => {
    // The ticker answers only after the rate source has given its result: null proves it gave up on its own (without
    // its timeout it would wait here until the test's). No clock is read, so a busy machine cannot fail it.
    let answer!: () => void;
    server.setHandler(() => new Promise((resolve) => { answer = () => resolve({ body: ticker(1) }); }));
    try {
      await expect(source({ timeoutMs: 200 }).current()).resolves.toBeNull();
    } finally {
      answer?.();
    }
  });
});
