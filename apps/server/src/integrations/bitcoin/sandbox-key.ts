import { SANDBOX_TRON_XPUB } from '../tron/sandbox-key.js';
import { sameKeyMaterial } from './extended-key.js';

/**
 * Sandbox BTC account keys, from the public BIP39 test mnemonic
 * "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about":
 * - mainnet zpub at m/84'/0'/0' — the account key published in BIP84's test vectors;
 * - testnet vpub at m/84'/1'/0' — the same mnemonic's testnet account (SLIP-132 test vectors).
 * Anyone can spend what is sent to these addresses, so the config refuses them in production.
 */
export const SANDBOX_BTC_ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
export const SANDBOX_BTC_VPUB =
  'vpub5Y6cjg78GGuNLsaPhmYsiw4gYX3HoQiRBiSwDaBXKUafCt9bNwWQiitDk5VZ5BVxYnQdwoTyXSs2JHRPAgjAvtbBrf8ZhDYe2jWAqvZVnsc';

const SANDBOX_KEYS = [SANDBOX_BTC_ZPUB, SANDBOX_BTC_VPUB, SANDBOX_TRON_XPUB];

/**
 * True for any of the public sandbox keys (BTC or TRON), compared by key material so that re-encoding one with
 * other version bytes (zpub → xpub) does not slip past the production check.
 */
export function isSandboxKey(extendedKey: string): boolean {
  return SANDBOX_KEYS.some((sandbox) => sameKeyMaterial(sandbox, extendedKey));
}
