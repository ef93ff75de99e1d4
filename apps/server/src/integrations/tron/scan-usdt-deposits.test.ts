import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeHttpServer, type FakeHttpServer, type FakeReply } from '../../../test/fake-http.js';
import { MAINNET_USDT_CONTRACT, scanUsdtAddress } from './scan-usdt-deposits.js';
import { TronGridClient } from './trongrid-client.js';

const OURS = 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH';
const OTHER = 'TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK';
const SENDER = 'TYJPRrdB5APNeRs4R7fYZSwW3TcrTKw2gx';
const FAKE_TOKEN = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf'; // some other TRC-20 contract calling itself "USDT"

// Shaped like api.trongrid.io /v1/accounts/:addr/transactions/trc20 answers.
function transfer(id: string, value: string, opts: { to?: string; token?: string; type?: string; decimals?: number } = {}) {
  return {
    transaction_id: id.repeat(64).slice(0, 64),
    token_info: { symbol: 'USDT', address: opts.token ?? MAINNET_USDT_CONTRACT, decimals: opts.decimals ?? 6, name: 'Tether USD' },
    block_timestamp: 1_713_571_767_000,
    from: SENDER,
    to: opts.to ?? OURS,
    type: opts.type ?? 'Transfer',
    value,
  };
}
const page = (data: unknown[], fingerprint?: string) => ({
  data,
  success: true,
  meta: { at: 1_713_571_800_000, page_size: data.length, ...(fingerprint ? { fingerprint, links: { next: 'https://api.trongrid.io/…' } } : {}) },
});

const logged: { details: object; message: string }[] = [];
const log = { warn: (details: object, message: string) => logged.push({ details, message }) };

let server: FakeHttpServer;
let body: unknown;
const trongrid = (url: URL): FakeReply =>
  url.pathname === `/v1/accounts/${OURS}/transactions/trc20` ? { body } : { status: 404, body: { success: false, error: 'not found' } };

beforeAll(async () => {
  server = await startFakeHttpServer(trongrid);
});
afterAll(() => server.close());
beforeEach(() => {
  logged.length = 0;
  server.requests.length = 0;
  server.setHandler(trongrid);
});

const scan = (apiKey?: string) =>
  scanUsdtAddress(new TronGridClient({ baseUrl: server.url, apiKey }), OURS, { contract: MAINNET_USDT_CONTRACT, log });

describe('scanUsdtAddress against a TronGrid-compatible API', () => {
  it('asks for confirmed incoming transfers of the USDT contract, with the API key when set', async () => {
    body = page([]);
    await scan('key-123');
    const request = server.requests[0]!;
    expect(request.url.searchParams.get('only_confirmed')).toBe('true');
    expect(request.url.searchParams.get('contract_address')).toBe(MAINNET_USDT_CONTRACT);
    expect(request.headers['tron-pro-api-key']).toBe('key-123');
    await scan();
    expect(server.requests[1]!.headers['tron-pro-api-key']).toBeUndefined();
  });

  it('reports USDT transfers to our address in micro-USDT, referenced by transaction id', async () => {
    body = page([transfer('a', '25000000'), transfer('b', '123456789012345678901234567890')]);
    expect(await scan()).toEqual({
      ok: true,
      deposits: [
        { reference: 'a'.repeat(64), address: OURS, from: SENDER, amountMicroUsdt: 25_000_000n, blockTimestamp: 1_713_571_767_000 },
        // Far beyond 2^53: exact because the string goes straight to bigint.
        { reference: 'b'.repeat(64), address: OURS, from: SENDER, amountMicroUsdt: 123456789012345678901234567890n, blockTimestamp: 1_713_571_767_000 },
      ],
    });
  });

  it('ignores a fake token contract, transfers to other addresses and approvals', async () => {
    body = page([
      transfer('c', '50000000', { token: FAKE_TOKEN }),
      transfer('d', '50000000', { to: OTHER }),
      transfer('e', '50000000', { type: 'Approval' }),
      transfer('f', '50000000', { decimals: 18 }),
    ]);
    expect(await scan()).toEqual({ ok: true, deposits: [] });
    expect(logged.map((l) => l.message)).toEqual([
      'ignored a TRC-20 transfer of another token contract',
      'ignored a USDT transfer with unexpected decimals',
    ]);
  });

  it('sums two transfers to us in one transaction into one deposit, and counts a repeated event once', async () => {
    const first = transfer('1', '1000000');
    const second = { ...transfer('1', '2500000'), from: OTHER };
    server.setHandler((url) => {
      if (!url.searchParams.get('fingerprint')) return { body: page([first, second], 'next-page') };
      return { body: page([first]) }; // the cursor handed back an event we already had
    });
    const result = await scan();
    expect(result.deposits).toHaveLength(1);
    expect(result.deposits[0]).toMatchObject({ reference: '1'.repeat(64), amountMicroUsdt: 3_500_000n });
    expect(server.requests.map((r) => r.url.searchParams.get('fingerprint'))).toEqual([null, 'next-page']);
  });

  it('credits nothing and logs when the answer is malformed or the upstream fails', async () => {
    const bad: FakeReply[] = [
      { body: { success: false, error: 'rate limit' } },
      { body: page([{ ...transfer('a', '1'), value: 1000000 }]) }, // value as a JSON number
      { body: page([transfer('a', '1.5')]) }, // fractional token units
      { body: page([transfer('a', '-5')]) },
      { body: '{"data": [' },
      { status: 500, body: 'oops' },
    ];
    for (const reply of bad) {
      server.setHandler(() => reply);
      expect(await scan()).toMatchObject({ ok: false, deposits: [] });
    }
    expect(logged).toHaveLength(bad.length);
    expect(logged.every((l) => l.message === 'USDT deposit scan failed; nothing credited')).toBe(true);
  });
});
