import type { UpstreamLog } from '../../lib/upstream-json.js';
import { parseBip84AccountKey, type BtcNetwork } from './bip84-address.js';
import { EsploraClient } from './esplora-client.js';
import { isSandboxKey } from './sandbox-key.js';
import { scanBtcAddress, type BtcDeposit, type DepositScan } from './scan-btc-deposits.js';

export interface BtcAdapter {
  /** 'sandbox' with the public test key: addresses are derived, but nothing is ever read from the chain. */
  mode: 'live' | 'sandbox';
  network: BtcNetwork;
  /** The deposit address for an account's address index (m/84'/coin'/0'/0/index). */
  depositAddress(index: number): string;
  /** Deposits to one of our addresses, confirmed or pending; never throws. */
  scan(address: string): Promise<DepositScan<BtcDeposit>>;
}

export interface BtcAdapterSettings {
  BTC_XPUB: string;
  ESPLORA_URL: string;
  BTC_CONFIRMATIONS: number;
}

/**
 * The BTC adapter the payments code uses. With the sandbox key it never scans: the sandbox addresses belong to a
 * public test wallet that strangers really do send coins to, and those must never be credited to anyone here —
 * in sandbox mode payments complete through the offline "Simulate payment" control instead.
 */
export function createBtcAdapter(settings: BtcAdapterSettings, log: UpstreamLog): BtcAdapter {
  const account = parseBip84AccountKey(settings.BTC_XPUB);
  const depositAddress = (index: number) => account.address(index);
  if (isSandboxKey(settings.BTC_XPUB)) {
    return { mode: 'sandbox', network: account.network, depositAddress, scan: async () => ({ ok: true, deposits: [] }) };
  }
  const client = new EsploraClient({ baseUrl: settings.ESPLORA_URL });
  return {
    mode: 'live',
    network: account.network,
    depositAddress,
    scan: (address) => scanBtcAddress(client, address, { requiredConfirmations: settings.BTC_CONFIRMATIONS, log }),
  };
}
