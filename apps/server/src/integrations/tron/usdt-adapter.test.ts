import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HDKey } from '@scure/bip32';
import { startFakeHttpServer, type FakeHttpServer } from '../../../test/fake-http.js';
import { SANDBOX_TRON_XPUB } from './sandbox-key.js';
import { MAINNET_USDT_CONTRACT } from './scan-usdt-deposits.js';
import { createUsdtAdapter } from './usdt-adapter.js';

const log = { warn: () => {} };
// A valid account-level xpub that is not a sandbox key (the sandbox key's point with another chain code, so it
// derives unrelated addresses); with it the adapter runs live against the fake TronGrid. Tests only.
const sandbox = HDKey.fromExtendedKey(SANDBOX_TRON_XPUB);
const LIVE_TEST_XPUB = new HDKey({
  depth: 3,
  index: sandbox.index,
  parentFingerprint: sandbox.parentFingerprint,
  chainCode: new Uint8Array(32).fill(7),
  publicKey: sandbox.publicKey!,
}).publicExtendedKey;

let server: FakeHttpServer;
beforeAll(async () => {
  server = await startFakeHttpServer((url) => {
    const address = url.pathname.split('/')[3];
    const transfer = {
      transaction_id: 'cd'.repeat(32),
      token_info: { symbol: 'USDT', address: MAINNET_USDT_CONTRACT, decimals: 6, name: 'Tether USD' },
      block_timestamp: 1_713_571_767_000,
      from: 'TYJPRrdB5APNeRs4R7fYZSwW3TcrTKw2gx',
      to: address,
      type: 'Transfer',
      value: '10000000',
    };
    return { body: { data: [transfer], success: true, meta: { at: 1, page_size: 1 } } };
  });
});
afterAll(() => server.close());

const settings = { TRONGRID_URL: '', USDT_CONTRACT: MAINNET_USDT_CONTRACT };

describe('createUsdtAdapter', () => {
  it('with the sandbox key derives addresses but never asks the chain', async () => {
    const adapter = createUsdtAdapter({ ...settings, TRON_XPUB: SANDBOX_TRON_XPUB, TRONGRID_URL: server.url }, log);
    expect(adapter.mode).toBe('sandbox');
    expect(adapter.depositAddress(0)).toBe('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
    expect(await adapter.scan(adapter.depositAddress(0))).toEqual({ ok: true, deposits: [] });
    expect(server.requests).toHaveLength(0);
  });

  it('with a real key scans the configured TronGrid', async () => {
    const adapter = createUsdtAdapter({ ...settings, TRON_XPUB: LIVE_TEST_XPUB, TRONGRID_URL: server.url, TRONGRID_API_KEY: 'k' }, log);
    expect(adapter.mode).toBe('live');
    const address = adapter.depositAddress(4);
    expect(address).not.toBe(createUsdtAdapter({ ...settings, TRON_XPUB: SANDBOX_TRON_XPUB }, log).depositAddress(4));
    const result = await adapter.scan(address);
    expect(result.deposits).toEqual([expect.objectContaining({ address, amountMicroUsdt: 10_000_000n, reference: 'cd'.repeat(32) })]);
    expect(server.requests[0]!.headers['tron-pro-api-key']).toBe('k');
  });
});
