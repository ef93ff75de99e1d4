import type { UpstreamLog } from '../../lib/upstream-json.js';
import { isSandboxKey } from '../bitcoin/sandbox-key.js';
import type { DepositScan } from '../bitcoin/scan-btc-deposits.js';
import { scanUsdtAddress, type UsdtDeposit } from './scan-usdt-deposits.js';
import { parseTronAccountKey } from './tron-address.js';
import { TronGridClient } from './trongrid-client.js';

export interface UsdtAdapter {
  /** 'sandbox' with the public test key: addresses are derived, but nothing is ever read from the chain. */
  mode: 'live' | 'sandbox';
  /** The deposit address for an account's address index (m/44'/195'/0'/0/index). */
  depositAddress(index: number): string;
  /** Confirmed USDT deposits to one of our addresses; never throws. */
  scan(address: string): Promise<DepositScan<UsdtDeposit>>;
}

export interface UsdtAdapterSettings {
  TRON_XPUB: string;
  TRONGRID_URL: string;
  TRONGRID_API_KEY?: string;
  USDT_CONTRACT: string;
}

/**
 * The USDT (TRC-20) adapter the payments code uses. With the sandbox key it never scans, for the same reason as
 * BTC: the public test wallet receives strangers' real transfers, which must never be credited here.
 */
export function createUsdtAdapter(settings: UsdtAdapterSettings, log: UpstreamLog): UsdtAdapter {
  const account = parseTronAccountKey(settings.TRON_XPUB);
  const depositAddress = (index: number) => account.address(index);
  if (isSandboxKey(settings.TRON_XPUB)) {
    return { mode: 'sandbox', depositAddress, scan: async () => ({ ok: true, deposits: [] }) };
  }
  const client = new TronGridClient({ baseUrl: settings.TRONGRID_URL, apiKey: settings.TRONGRID_API_KEY });
  return {
    mode: 'live',
    depositAddress,
    scan: (address) => scanUsdtAddress(client, address, { contract: settings.USDT_CONTRACT, log }),
  };
}
