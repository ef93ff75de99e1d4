import { createBase58check } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { decodeAccountKey, type AccountKey } from '../bitcoin/extended-key.js';

const base58check = createBase58check(sha256);
const TRON_MAINNET_PREFIX = 0x41;
const MAX_INDEX = 0x7fffffff;

export interface TronAccount {
  /** The TRON address (T…) at m/44'/195'/account'/0/index. */
  address(index: number): string;
}

/**
 * Parses the operator's TRON account key: the BIP32 xpub at m/44'/195'/0' (what TronLink, Ledger and Trezor
 * export for the first account). Throws ExtendedKeyError when it is not an account-level xpub.
 */
export function parseTronAccountKey(key: string): TronAccount {
  const account = decodeAccountKey(key, ['xpub']);
  return { address: (index) => tronAddressAt(account, index) };
}

/** One-shot form: the deposit address number `index` under the account key. */
export function deriveTronAddress(accountKey: string, index: number): string {
  return parseTronAccountKey(accountKey).address(index);
}

/**
 * TRON address of a secp256k1 public key: keccak256 of the 64-byte uncompressed point (without its 0x04 tag),
 * last 20 bytes, prefixed with 0x41, base58check — the same scheme as Ethereum with TRON's prefix and encoding.
 */
export function tronAddressFromPublicKey(publicKey: Uint8Array): string {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  const hash = keccak_256(uncompressed.subarray(1));
  const payload = new Uint8Array(21);
  payload[0] = TRON_MAINNET_PREFIX;
  payload.set(hash.subarray(12), 1);
  return base58check.encode(payload);
}

/** True for a well-formed mainnet TRON address (T…, valid checksum). */
export function isTronAddress(value: string): boolean {
  try {
    const bytes = base58check.decode(value);
    return bytes.length === 21 && bytes[0] === TRON_MAINNET_PREFIX;
  } catch {
    return false;
  }
}

function tronAddressAt(account: AccountKey, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index > MAX_INDEX) throw new RangeError(`address index out of range: ${index}`);
  const publicKey = account.hdkey.deriveChild(0).deriveChild(index).publicKey;
  if (!publicKey) throw new Error('derivation produced no public key');
  return tronAddressFromPublicKey(publicKey);
}
