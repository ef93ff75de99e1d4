import { z } from 'zod';
import { isSandboxKey } from '../bitcoin/sandbox-key.js';
import { MAINNET_USDT_CONTRACT } from './scan-usdt-deposits.js';
import { isTronAddress, parseTronAccountKey } from './tron-address.js';
import { SANDBOX_TRON_XPUB } from './sandbox-key.js';

/** TRON / USDT settings, spread into the config schema (apps/server/src/config.ts). */
export const tronConfigFields = {
  /** BIP32 account public key at m/44'/195'/0' (xpub…) from the operator's TRON wallet. */
  TRON_XPUB: z.string().trim().default(SANDBOX_TRON_XPUB),
  /** TronGrid-compatible API used to watch deposit addresses. */
  TRONGRID_URL: z.url().default('https://api.trongrid.io'),
  /** Optional TronGrid API key, sent as the TRON-PRO-API-KEY header. */
  TRONGRID_API_KEY: z.string().optional(),
  /** The USDT TRC-20 contract; transfers of any other token never count. */
  USDT_CONTRACT: z.string().trim().default(MAINNET_USDT_CONTRACT),
};

/** What is wrong with the TRON settings; a sandbox key is wrong only in production. */
export function tronSettingsProblems(c: { TRON_XPUB: string; USDT_CONTRACT: string }, isProduction: boolean): string[] {
  const problems: string[] = [];
  try {
    parseTronAccountKey(c.TRON_XPUB);
    if (isProduction && isSandboxKey(c.TRON_XPUB)) {
      problems.push('TRON_XPUB is the public sandbox key (anyone can spend its coins); set your wallet\'s m/44\'/195\'/0\' xpub');
    }
  } catch (err) {
    problems.push(`TRON_XPUB: ${(err as Error).message}`);
  }
  if (!isTronAddress(c.USDT_CONTRACT)) problems.push('USDT_CONTRACT is not a TRON address');
  return problems;
}
