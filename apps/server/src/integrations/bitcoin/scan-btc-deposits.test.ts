import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeHttpServer, type FakeHttpServer, type FakeReply } from '../../../test/fake-http.js';
import { EsploraClient } from './esplora-client.js';
import { scanBtcAddress } from './scan-btc-deposits.js';

const OURS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
const OTHER = 'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g';
const TIP = 840_010;

// Shaped like blockstream.info/api/address/:addr/txs answers (fields we do not read trimmed to a few).
function tx(id: string, outputs: { address?: string; value: number }[], blockHeight: number | null) {
  return {
    txid: id.repeat(64).slice(0, 64),
    version: 2,
    locktime: 0,
    vin: [{ txid: 'f'.repeat(64), vout: 0, is_coinbase: false, sequence: 4294967293 }],
    vout: outputs.map((o) => ({
      scriptpubkey: '0014c0cebcd6c3d3ca8c75dc5ec62ebe55330ef910e2',
      scriptpubkey_type: o.address ? 'v0_p2wpkh' : 'op_return',
      ...(o.address ? { scriptpubkey_address: o.address } : {}),
      value: o.value,
    })),
    size: 222,
    weight: 561,
    fee: 1410,
    status: blockHeight === null
      ? { confirmed: false }
      : { confirmed: true, block_height: blockHeight, block_hash: '0'.repeat(64), block_time: 1713571767 },
  };
}

const logged: { details: object; message: string }[] = [];
const log = { warn: (details: object, message: string) => logged.push({ details, message }) };

let server: FakeHttpServer;
let history: unknown;

function esplora(url: URL): FakeReply {
  if (url.pathname === '/api/blocks/tip/height') return { body: String(TIP) };
  if (url.pathname === `/api/address/${OURS}/txs`) return { body: history };
  return { status: 404, body: 'Not found' };
}

beforeAll(async () => {
  server = await startFakeHttpServer(esplora);
});
afterAll(() => server.close());
beforeEach(() => {
  logged.length = 0;
  server.setHandler(esplora);
});

const scan = () => scanBtcAddress(new EsploraClient({ baseUrl: `${server.url}/api/` }), OURS, { requiredConfirmations: 2, log });

describe('scanBtcAddress against an Esplora-compatible API', () => {
  it('reports deep-enough outputs to our address as confirmed, in satoshi, referenced txid:vout', async () => {
    history = [
      tx('a', [{ address: OTHER, value: 90_000 }, { address: OURS, value: 125_000 }], TIP - 5),
      tx('b', [{ address: OURS, value: 2_100_000_000_000_000 }], TIP - 1), // the whole supply: still exact
    ];
    const result = await scan();
    expect(result).toEqual({
      ok: true,
      deposits: [
        { reference: `${'a'.repeat(64)}:1`, txid: 'a'.repeat(64), vout: 1, address: OURS, amountSat: 125_000n, confirmations: 6, status: 'confirmed' },
        { reference: `${'b'.repeat(64)}:0`, txid: 'b'.repeat(64), vout: 0, address: OURS, amountSat: 2_100_000_000_000_000n, confirmations: 2, status: 'confirmed' },
      ],
    });
  });

  it('reports mempool and shallow transactions as pending, never confirmed', async () => {
    history = [tx('c', [{ address: OURS, value: 50_000 }], null), tx('d', [{ address: OURS, value: 60_000 }], TIP)];
    const result = await scan();
    expect(result.ok).toBe(true);
    expect(result.deposits.map((d) => [d.amountSat, d.confirmations, d.status])).toEqual([
      [50_000n, 0, 'pending'],
      [60_000n, 1, 'pending'],
    ]);
  });

  it('ignores outputs to other addresses and outputs without an address', async () => {
    history = [tx('e', [{ address: OTHER, value: 10_000 }, { value: 0 }], TIP - 10)];
    expect(await scan()).toEqual({ ok: true, deposits: [] });
  });

  it('keeps two outputs of one transaction to our address apart', async () => {
    history = [tx('f', [{ address: OURS, value: 1 }, { address: OURS, value: 2 }], TIP - 3)];
    const { deposits } = await scan();
    expect(deposits.map((d) => d.reference)).toEqual([`${'f'.repeat(64)}:0`, `${'f'.repeat(64)}:1`]);
  });

  it('credits nothing and logs when the answer is malformed', async () => {
    const malformed: unknown[] = [
      { error: 'rate limited' }, // not a list
      [tx('a', [{ address: OURS, value: 1.5 }], TIP - 9)], // fractional satoshi
      [tx('a', [{ address: OURS, value: '125000' as unknown as number }], TIP - 9)], // amount as a string
      [{ ...tx('a', [{ address: OURS, value: 1 }], TIP - 9), status: { confirmed: true } }], // confirmed without a height
    ];
    for (const body of malformed) {
      history = body;
      const result = await scan();
      expect(result).toMatchObject({ ok: false, deposits: [] });
    }
    expect(logged).toHaveLength(malformed.length);
    expect(logged[0]?.message).toMatch(/nothing credited/);
  });

  it('credits nothing and logs when the body is not JSON, the tip is garbage or the server errors', async () => {
    server.setHandler((url) => (url.pathname.endsWith('/txs') ? { body: '<html>502 Bad Gateway</html>' } : esplora(url)));
    expect((await scan()).ok).toBe(false);
    history = [tx('a', [{ address: OURS, value: 1 }], TIP - 9)];
    server.setHandler((url) => (url.pathname.endsWith('/height') ? { body: 'soon' } : esplora(url)));
    expect((await scan()).ok).toBe(false);
    server.setHandler(() => ({ status: 503, body: 'maintenance' }));
    expect((await scan()).ok).toBe(false);
    expect(logged).toHaveLength(3);
  });

  it('follows history pages when an address has more than 25 confirmed transactions', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => i.toString(16).padStart(2, '0'));
    const txs = ids.map((id, i) => tx(id, [{ address: OURS, value: 1000 + i }], TIP - 100 - i));
    server.setHandler((url) => {
      if (url.pathname === `/api/address/${OURS}/txs`) return { body: txs.slice(0, 25) };
      if (url.pathname === `/api/address/${OURS}/txs/chain/${txs[24]!.txid}`) return { body: txs.slice(25) };
      return esplora(url);
    });
    const { deposits } = await scan();
    expect(deposits).toHaveLength(30);
    expect(deposits.every((d) => d.status === 'confirmed')).toBe(true);
  });
});
