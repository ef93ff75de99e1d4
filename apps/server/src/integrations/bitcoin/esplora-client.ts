import { z } from 'zod';
import { fetchJson, fetchText, joinUrl, UpstreamError } from '../../lib/upstream-json.js';

/**
 * Client for an Esplora-compatible HTTP API (blockstream.info/api, mempool.space/api, or a self-hosted
 * electrs/esplora). Read-only: it lists an address's transactions and the chain tip. Responses are checked against
 * the documented shape; anything else is an UpstreamError, so a broken or hostile upstream credits nothing.
 */

const txSchema = z.object({
  txid: z.string().regex(/^[0-9a-f]{64}$/),
  vout: z.array(
    z.object({
      // Outputs that pay no standard address (OP_RETURN, bare scripts) have no scriptpubkey_address.
      scriptpubkey_address: z.string().optional(),
      // Satoshi as a JSON integer; the whole supply (2.1e15) fits in a safe integer, so nothing is rounded.
      value: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    }),
  ),
  status: z.union([
    z.object({ confirmed: z.literal(true), block_height: z.number().int().nonnegative(), block_hash: z.string().optional() }),
    z.object({ confirmed: z.literal(false) }),
  ]),
});
export type EsploraTx = z.infer<typeof txSchema>;

const txListSchema = z.array(txSchema);

// Esplora pages confirmed history 25 at a time (/txs gives mempool txs plus the newest 25 confirmed).
const CONFIRMED_PAGE_SIZE = 25;

export interface EsploraClientOptions {
  baseUrl: string;
  timeoutMs?: number;
  /** Upper bound on history pages per address; a fresh deposit address has one. */
  maxPages?: number;
}

export class EsploraClient {
  constructor(private readonly options: EsploraClientOptions) {}

  /** Height of the best block (GET /blocks/tip/height, a bare integer). */
  async tipHeight(): Promise<number> {
    const url = joinUrl(this.options.baseUrl, 'blocks/tip/height');
    const text = (await fetchText(url, { timeoutMs: this.options.timeoutMs })).trim();
    if (!/^\d{1,9}$/.test(text)) throw new UpstreamError('tip height is not an integer', url);
    return Number(text);
  }

  /** Mempool and confirmed transactions touching the address, newest first (GET /address/:addr/txs, then /txs/chain/:last). */
  async addressTxs(address: string): Promise<EsploraTx[]> {
    const base = joinUrl(this.options.baseUrl, `address/${encodeURIComponent(address)}/txs`);
    const first = await this.page(base);
    const all = [...first];
    let confirmed = first.filter((tx) => tx.status.confirmed);
    for (let page = 1; confirmed.length === CONFIRMED_PAGE_SIZE && page < (this.options.maxPages ?? 20); page++) {
      const lastSeen = confirmed[confirmed.length - 1]!.txid;
      confirmed = (await this.page(`${base}/chain/${lastSeen}`)).filter((tx) => tx.status.confirmed);
      all.push(...confirmed);
    }
    return all;
  }

  private async page(url: string): Promise<EsploraTx[]> {
    const parsed = txListSchema.safeParse(await fetchJson(url, { timeoutMs: this.options.timeoutMs }));
    if (!parsed.success) throw new UpstreamError(`unexpected response shape: ${parsed.error.issues[0]?.message ?? ''}`, url);
    return parsed.data;
  }
}
