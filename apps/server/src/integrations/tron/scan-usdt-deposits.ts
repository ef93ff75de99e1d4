import type { UpstreamLog } from '../../lib/upstream-json.js';
import type { DepositScan } from '../bitcoin/scan-btc-deposits.js';
import type { TronGridClient } from './trongrid-client.js';

/** Mainnet USDT (Tether) TRC-20 contract; the only token whose transfers count unless configured otherwise. */
export const MAINNET_USDT_CONTRACT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const USDT_DECIMALS = 6;

/** USDT received by our deposit address in one confirmed transaction. The ledger credits `reference` once. */
export interface UsdtDeposit {
  /** The TRON transaction id. Several transfers to us inside one transaction are summed into one deposit. */
  reference: string;
  address: string;
  from: string;
  /** Micro-USDT (the token's 6 decimals), exact. */
  amountMicroUsdt: bigint;
  blockTimestamp: number;
}

export interface UsdtScanOptions {
  /** The USDT contract address (T…); transfers of any other token are ignored even if the upstream returns them. */
  contract: string;
  log: UpstreamLog;
}

/**
 * Lists confirmed USDT deposits into `address`. Only Transfer events of the configured contract whose `to` is our
 * address count — a look-alike token named "USDT" from another contract is ignored and logged. Never throws: an
 * upstream failure or malformed answer is logged and reported as `ok: false` with no deposits.
 */
export async function scanUsdtAddress(client: TronGridClient, address: string, options: UsdtScanOptions): Promise<DepositScan<UsdtDeposit>> {
  let transfers;
  try {
    transfers = await client.incomingTransfers(address, options.contract);
  } catch (err) {
    options.log.warn({ err, address, upstream: 'trongrid' }, 'USDT deposit scan failed; nothing credited');
    return { ok: false, error: (err as Error).message, deposits: [] };
  }
  const byTransaction = new Map<string, UsdtDeposit>();
  // The API gives no event index, so an event repeated across pages would look like a second transfer. Identical
  // entries are counted once: at worst two truly identical transfers in one transaction under-credit, never over.
  const seenEvents = new Set<string>();
  for (const t of transfers) {
    if (t.type !== 'Transfer' || t.to !== address) continue;
    const eventKey = `${t.transaction_id}|${t.token_info.address}|${t.from}|${t.value}`;
    if (seenEvents.has(eventKey)) continue;
    seenEvents.add(eventKey);
    if (t.token_info.address !== options.contract) {
      options.log.warn({ address, txid: t.transaction_id, token: t.token_info.address }, 'ignored a TRC-20 transfer of another token contract');
      continue;
    }
    if (t.token_info.decimals !== USDT_DECIMALS) {
      options.log.warn({ address, txid: t.transaction_id, decimals: t.token_info.decimals }, 'ignored a USDT transfer with unexpected decimals');
      continue;
    }
    const amount = BigInt(t.value);
    const seen = byTransaction.get(t.transaction_id);
    if (seen) seen.amountMicroUsdt += amount;
    else byTransaction.set(t.transaction_id, { reference: t.transaction_id, address, from: t.from, amountMicroUsdt: amount, blockTimestamp: t.block_timestamp });
  }
  return { ok: true, deposits: [...byTransaction.values()].filter((d) => d.amountMicroUsdt > 0n) };
}
