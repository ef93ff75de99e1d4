import { bech32 } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { decodeAccountKey, type AccountKey } from './extended-key.js';

export type BtcNetwork = 'mainnet' | 'testnet';

/** Receive chain (0) for deposit addresses; change chain (1) exists only so tests can check the BIP84 vectors. */
export type Bip84Chain = 0 | 1;

const HRP: Record<BtcNetwork, string> = { mainnet: 'bc', testnet: 'tb' };
const MAX_INDEX = 0x7fffffff; // non-hardened child numbers only: hardened ones need the private key

export interface Bip84Account {
  network: BtcNetwork;
  /** The P2WPKH (bech32, bc1q…/tb1q…) address at m/84'/coin'/account'/chain/index. */
  address(index: number, chain?: Bip84Chain): string;
}

/** Parses a BIP84 account key (zpub for mainnet, vpub for testnet); throws ExtendedKeyError when it is not one. */
export function parseBip84AccountKey(key: string): Bip84Account {
  const account = decodeAccountKey(key, ['zpub', 'vpub']);
  const network: BtcNetwork = account.kind === 'zpub' ? 'mainnet' : 'testnet';
  return { network, address: (index, chain = 0) => p2wpkhAddress(account, network, chain, index) };
}

/** One-shot form of parseBip84AccountKey(key).address(index): the deposit address number `index`. */
export function deriveBtcAddress(accountKey: string, index: number): string {
  return parseBip84AccountKey(accountKey).address(index);
}

function p2wpkhAddress(account: AccountKey, network: BtcNetwork, chain: Bip84Chain, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index > MAX_INDEX) throw new RangeError(`address index out of range: ${index}`);
  const publicKey = account.hdkey.deriveChild(chain).deriveChild(index).publicKey;
  if (!publicKey) throw new Error('derivation produced no public key');
  const program = ripemd160(sha256(publicKey)); // HASH160 of the compressed key: the witness v0 key-hash program
  return bech32.encode(HRP[network], [0, ...bech32.toWords(program)]);
}
