import type { EsploraClient } from './esplora-client.js';
import type { UpstreamLog } from '../../lib/upstream-json.js';

/** One output paying our deposit address. The ledger credits `reference` once; `pending` is never credited. */
export interface BtcDeposit {
  /** `txid:vout` — unique per output on the chain, so a replayed scan cannot credit twice. */
  reference: string;
  txid: string;
  vout: number;
  address: string;
  amountSat: bigint;
  confirmations: number;
  status: 'confirmed' | 'pending';
}

export type DepositScan<T> = { ok: true; deposits: T[] } | { ok: false; error: string; deposits: [] };

export interface BtcScanOptions {
  requiredConfirmations: number;
  log: UpstreamLog;
}

/**
 * Lists the outputs paying `address`, each marked confirmed (≥ requiredConfirmations blocks deep) or pending
 * (in the mempool or not deep enough yet). Never throws: an upstream failure or malformed answer is logged and
 * reported as `ok: false` with no deposits, so the calling job simply tries again on its next run.
 */
export async function scanBtcAddress(client: EsploraClient, address: string, options: BtcScanOptions): Promise<DepositScan<BtcDeposit>> {
  try {
    const txs = await client.addressTxs(address);
    // Tip after the history: a block found in between can only make confirmations look lower, never higher.
    const tip = await client.tipHeight();
    const deposits: BtcDeposit[] = [];
    for (const tx of txs) {
      const confirmations = tx.status.confirmed ? Math.max(0, tip - tx.status.block_height + 1) : 0;
      tx.vout.forEach((output, vout) => {
        if (output.scriptpubkey_address?.toLowerCase() !== address.toLowerCase()) return;
        deposits.push({
          reference: `${tx.txid}:${vout}`,
          txid: tx.txid,
          vout,
          address,
          amountSat: BigInt(output.value),
          confirmations,
          status: confirmations >= options.requiredConfirmations ? 'confirmed' : 'pending',
        });
      });
    }
    return { ok: true, deposits: dedupe(deposits) };
  } catch (err) {
    options.log.warn({ err, address, upstream: 'esplora' }, 'BTC deposit scan failed; nothing credited');
    return { ok: false, error: (err as Error).message, deposits: [] };
  }
}

// Paging while new blocks arrive can return the same transaction twice; one entry per output.
function dedupe(deposits: BtcDeposit[]): BtcDeposit[] {
  return [...new Map(deposits.map((d) => [d.reference, d])).values()];
}
