import { z } from 'zod';
import { parseBip84AccountKey } from './bip84-address.js';
import { isSandboxKey, SANDBOX_BTC_ZPUB } from './sandbox-key.js';

/** BTC settings, spread into the config schema (apps/server/src/config.ts). */
export const btcConfigFields = {
  /** BIP84 account public key (zpub = mainnet bc1…, vpub = testnet tb1…) from the operator's wallet. */
  BTC_XPUB: z.string().trim().default(SANDBOX_BTC_ZPUB),
  /** Esplora-compatible API used to watch deposit addresses. */
  ESPLORA_URL: z.url().default('https://blockstream.info/api'),
  /** Blocks a BTC deposit must be under before it is credited. */
  BTC_CONFIRMATIONS: z.coerce.number().int().min(1).max(100).default(2),
};

/** What is wrong with the BTC settings; a sandbox key is wrong only in production. */
export function btcSettingsProblems(c: { BTC_XPUB: string }, isProduction: boolean): string[] {
  try {
    parseBip84AccountKey(c.BTC_XPUB);
  } catch (err) {
    return [`BTC_XPUB: ${(err as Error).message}`];
  }
  if (isProduction && isSandboxKey(c.BTC_XPUB)) {
    return ['BTC_XPUB is the public sandbox key (anyone can spend its coins); set your wallet\'s BIP84 zpub'];
  }
  return [];
}
