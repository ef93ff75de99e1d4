import { HDKey } from '@scure/bip32';
import { createBase58check } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';

/**
 * BIP32 extended PUBLIC keys as operators paste them from their wallets (xpub, zpub, vpub…). Only public keys are
 * accepted: the server can derive receive addresses but can never spend, so a leaked database or config moves no
 * money. The four version bytes say which address type the wallet means; we accept only the ones listed by the
 * caller, so a zpub cannot be mistaken for a legacy xpub.
 */
export const EXTENDED_KEY_VERSIONS = {
  xpub: 0x0488b21e, // BIP32 mainnet (used by TRON wallets at m/44'/195'/0')
  zpub: 0x04b24746, // BIP84 mainnet P2WPKH (SLIP-132)
  vpub: 0x045f1cf6, // BIP84 testnet P2WPKH (SLIP-132)
} as const;
export type ExtendedKeyKind = keyof typeof EXTENDED_KEY_VERSIONS;

// Private versions are required by the HDKey constructor but never used: we refuse private keys before that.
const PRIVATE_VERSION_OF: Record<ExtendedKeyKind, number> = { xpub: 0x0488ade4, zpub: 0x04b2430c, vpub: 0x045f18bc };

/** The account level of BIP44/BIP84 paths (m / purpose' / coin' / account'). */
export const ACCOUNT_DEPTH = 3;

const base58check = createBase58check(sha256);

export class ExtendedKeyError extends Error {}

export interface AccountKey {
  kind: ExtendedKeyKind;
  hdkey: HDKey;
}

/** Decodes an account-level extended public key of one of the allowed kinds, or throws ExtendedKeyError saying why. */
export function decodeAccountKey(key: string, allowed: readonly ExtendedKeyKind[]): AccountKey {
  const bytes = decodeBytes(key);
  const version = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0);
  const kind = allowed.find((k) => EXTENDED_KEY_VERSIONS[k] === version);
  if (!kind) {
    if (Object.values(PRIVATE_VERSION_OF).includes(version)) throw new ExtendedKeyError('this is a PRIVATE extended key; give the public one');
    throw new ExtendedKeyError(`unexpected key type; expected ${allowed.join(' or ')}`);
  }
  let hdkey: HDKey;
  try {
    hdkey = HDKey.fromExtendedKey(key.trim(), { public: EXTENDED_KEY_VERSIONS[kind], private: PRIVATE_VERSION_OF[kind] });
  } catch (err) {
    throw new ExtendedKeyError(`invalid extended key: ${(err as Error).message}`);
  }
  if (hdkey.depth !== ACCOUNT_DEPTH) {
    // A root or address-level key would derive addresses the operator's wallet never shows.
    throw new ExtendedKeyError(`expected an account-level key (depth ${ACCOUNT_DEPTH}), got depth ${hdkey.depth}`);
  }
  return { kind, hdkey };
}

/**
 * True when two serialized keys carry the same public key and chain code, whatever their version bytes: the same
 * account re-encoded as xpub instead of zpub is still the same account.
 */
export function sameKeyMaterial(a: string, b: string): boolean {
  let x: Uint8Array;
  let y: Uint8Array;
  try {
    x = keyMaterial(decodeBytes(a));
    y = keyMaterial(decodeBytes(b));
  } catch {
    return false;
  }
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

// Serialized layout (BIP32): version 4 | depth 1 | parent fingerprint 4 | child number 4 | chain code 32 | key 33.
function keyMaterial(bytes: Uint8Array): Uint8Array {
  return bytes.subarray(13, 78);
}

function decodeBytes(key: string): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(key.trim());
  } catch {
    throw new ExtendedKeyError('not a base58check string (typo or truncated key?)');
  }
  if (bytes.length !== 78) throw new ExtendedKeyError('wrong length for an extended key');
  return bytes;
}
