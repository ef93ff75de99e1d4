import { z } from 'zod';
import { fetchJson, joinUrl, UpstreamError } from '../../lib/upstream-json.js';

/**
 * Client for a TronGrid-compatible HTTP API (api.trongrid.io, nile.trongrid.io, or a self-hosted java-tron with the
 * TronGrid event API). Read-only: it lists TRC-20 transfers into an address. Responses are checked against the
 * documented shape; anything else is an UpstreamError, so a broken or hostile upstream credits nothing.
 */

const transferSchema = z.object({
  transaction_id: z.string().regex(/^[0-9a-f]{64}$/),
  token_info: z.object({ address: z.string(), decimals: z.number().int(), symbol: z.string().optional() }),
  block_timestamp: z.number().int(),
  from: z.string(),
  to: z.string(),
  type: z.string(), // "Transfer" or "Approval"
  // Token units as a decimal string (uint256 on chain): parsed to bigint by the caller, never to a float.
  value: z.string().regex(/^\d{1,78}$/),
});
export type Trc20Transfer = z.infer<typeof transferSchema>;

const pageSchema = z.object({
  success: z.literal(true),
  data: z.array(transferSchema),
  meta: z.object({ fingerprint: z.string().optional() }).optional(),
});

const PAGE_SIZE = 200; // TronGrid's maximum `limit`

export interface TronGridClientOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs?: number;
  /** Upper bound on pages per address; a deposit address has few transfers. */
  maxPages?: number;
}

export class TronGridClient {
  constructor(private readonly options: TronGridClientOptions) {}

  /**
   * Confirmed (solidified) TRC-20 transfers INTO `address` for one token contract, newest first, all pages
   * (GET /v1/accounts/:address/transactions/trc20?only_confirmed=true&only_to=true&contract_address=…).
   */
  async incomingTransfers(address: string, contract: string): Promise<Trc20Transfer[]> {
    const all: Trc20Transfer[] = [];
    let fingerprint: string | undefined;
    for (let page = 0; page < (this.options.maxPages ?? 20); page++) {
      const query = new URLSearchParams({ only_confirmed: 'true', only_to: 'true', contract_address: contract, limit: String(PAGE_SIZE) });
      if (fingerprint) query.set('fingerprint', fingerprint);
      const url = `${joinUrl(this.options.baseUrl, `v1/accounts/${encodeURIComponent(address)}/transactions/trc20`)}?${query}`;
      const headers: Record<string, string> = this.options.apiKey ? { 'TRON-PRO-API-KEY': this.options.apiKey } : {};
      const parsed = pageSchema.safeParse(await fetchJson(url, { headers, timeoutMs: this.options.timeoutMs }));
      if (!parsed.success) throw new UpstreamError(`unexpected response shape: ${parsed.error.issues[0]?.message ?? ''}`, url);
      all.push(...parsed.data.data);
      fingerprint = parsed.data.meta?.fingerprint;
      if (!fingerprint || parsed.data.data.length === 0) break;
    }
    return all;
  }
}
