import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeHttpServer, type FakeHttpServer } from '../../../test/fake-http.js';
import { createBtcAdapter } from './btc-adapter.js';
import { SANDBOX_BTC_ZPUB } from './sandbox-key.js';

// Account 1 (m/84'/0'/1') of the public test mnemonic: not a sandbox key, so the adapter runs live — tests only.
const LIVE_TEST_ZPUB = 'zpub6rFR7y4Q2AijF6Gk1bofHLs1d66hKFamhXWdWBup1Em25wfabZqkDqvaieV63fDQFaYmaatCG7jVNUpUiM2hAMo6SAVHcrUpSnHDpNzucB7';
const log = { warn: () => {} };

let server: FakeHttpServer;
beforeAll(async () => {
  server = await startFakeHttpServer((url) => {
    if (url.pathname.endsWith('/blocks/tip/height')) return { body: '100' };
    const address = url.pathname.split('/')[2];
    return {
      body: [{ txid: 'ab'.repeat(32), vout: [{ scriptpubkey_address: address, value: 5000 }], status: { confirmed: true, block_height: 90 } }],
    };
  });
});
afterAll(() => server.close());

describe('createBtcAdapter', () => {
  it('with the sandbox key derives addresses but never asks the chain', async () => {
    const adapter = createBtcAdapter({ BTC_XPUB: SANDBOX_BTC_ZPUB, ESPLORA_URL: server.url, BTC_CONFIRMATIONS: 2 }, log);
    expect(adapter.mode).toBe('sandbox');
    expect(adapter.depositAddress(0)).toBe('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    expect(await adapter.scan(adapter.depositAddress(0))).toEqual({ ok: true, deposits: [] });
    expect(server.requests).toHaveLength(0);
  });

  it('with a real key scans the configured Esplora', async () => {
    const adapter = createBtcAdapter({ BTC_XPUB: LIVE_TEST_ZPUB, ESPLORA_URL: server.url, BTC_CONFIRMATIONS: 2 }, log);
    expect(adapter.mode).toBe('live');
    const address = adapter.depositAddress(3);
    const result = await adapter.scan(address);
    expect(result.deposits).toEqual([expect.objectContaining({ address, amountSat: 5000n, confirmations: 11, status: 'confirmed' })]);
    expect(server.requests.map((r) => r.url.pathname)).toEqual([`/address/${address}/txs`, '/blocks/tip/height']);
  });
});
