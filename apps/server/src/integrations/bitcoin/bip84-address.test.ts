import { describe, expect, it } from 'vitest';
import { HDKey } from '@scure/bip32';
import { pbkdf2 } from '@noble/hashes/pbkdf2.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { deriveBtcAddress, parseBip84AccountKey } from './bip84-address.js';
import { ExtendedKeyError } from './extended-key.js';
import { isSandboxKey, SANDBOX_BTC_VPUB, SANDBOX_BTC_ZPUB } from './sandbox-key.js';
import { SANDBOX_TRON_XPUB } from '../tron/sandbox-key.js';

const TEST_MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

// BIP39 seed = PBKDF2-HMAC-SHA512(mnemonic, "mnemonic" + passphrase, 2048 rounds, 64 bytes). Only tests hold it.
function testSeed(): Uint8Array {
  const utf8 = new TextEncoder();
  return pbkdf2(sha512, utf8.encode(TEST_MNEMONIC), utf8.encode('mnemonic'), { c: 2048, dkLen: 64 });
}

describe('BIP84 address derivation from a zpub', () => {
  // Source: BIP84 "Test vectors" (github.com/bitcoin/bips/blob/master/bip-0084.mediawiki), mnemonic "abandon … about":
  // account 0 xpub, first receiving address m/84'/0'/0'/0/0, second m/84'/0'/0'/0/1, first change m/84'/0'/0'/1/0.
  const account = parseBip84AccountKey(
    'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
  );

  it('matches the published BIP84 receive and change addresses', () => {
    expect(account.network).toBe('mainnet');
    expect(account.address(0)).toBe('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    expect(account.address(1)).toBe('bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g');
    expect(account.address(0, 1)).toBe('bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el');
  });

  it('derives testnet tb1 addresses from a vpub', () => {
    // Source: SLIP-0132 test vectors — vpub of m/84'/1'/0' of the same mnemonic, first address tb1q6rz28…pvkl.
    const testnet = parseBip84AccountKey(SANDBOX_BTC_VPUB);
    expect(testnet.network).toBe('testnet');
    expect(testnet.address(0)).toBe('tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl');
  });

  it('gives distinct addresses per index, the same one every time', () => {
    const addresses = Array.from({ length: 20 }, (_, i) => deriveBtcAddress(SANDBOX_BTC_ZPUB, i));
    expect(new Set(addresses).size).toBe(20);
    expect(deriveBtcAddress(SANDBOX_BTC_ZPUB, 7)).toBe(addresses[7]);
  });

  it('refuses private keys, other key types, other depths, typos and bad indexes', () => {
    const root = HDKey.fromMasterSeed(testSeed(), { public: 0x04b24746, private: 0x04b2430c });
    const account84 = root.derive("m/84'/0'/0'");
    expect(() => parseBip84AccountKey(account84.privateExtendedKey)).toThrow(/PRIVATE/);
    expect(() => parseBip84AccountKey(root.publicExtendedKey)).toThrow(/depth 3/);
    expect(() => parseBip84AccountKey(SANDBOX_TRON_XPUB)).toThrow(ExtendedKeyError); // an xpub is not a BIP84 key
    expect(() => parseBip84AccountKey(SANDBOX_BTC_ZPUB.slice(0, -1) + 'a')).toThrow(/base58check/);
    expect(() => parseBip84AccountKey('')).toThrow(ExtendedKeyError);
    const account = parseBip84AccountKey(SANDBOX_BTC_ZPUB);
    expect(() => account.address(-1)).toThrow(RangeError);
    expect(() => account.address(0x80000000)).toThrow(RangeError);
    expect(() => account.address(1.5)).toThrow(RangeError);
  });
});

describe('sandbox keys', () => {
  it('are what the public test mnemonic derives', () => {
    const seed = testSeed();
    expect(HDKey.fromMasterSeed(seed, { public: 0x04b24746, private: 0x04b2430c }).derive("m/84'/0'/0'").publicExtendedKey).toBe(SANDBOX_BTC_ZPUB);
    expect(HDKey.fromMasterSeed(seed, { public: 0x045f1cf6, private: 0x045f18bc }).derive("m/84'/1'/0'").publicExtendedKey).toBe(SANDBOX_BTC_VPUB);
    expect(HDKey.fromMasterSeed(seed).derive("m/44'/195'/0'").publicExtendedKey).toBe(SANDBOX_TRON_XPUB);
  });

  it('are recognised whatever their version bytes, and real keys are not', () => {
    expect(isSandboxKey(SANDBOX_BTC_ZPUB)).toBe(true);
    expect(isSandboxKey(` ${SANDBOX_BTC_VPUB}\n`)).toBe(true);
    expect(isSandboxKey(SANDBOX_TRON_XPUB)).toBe(true);
    // The BIP84 account re-encoded as a plain xpub is still the sandbox account.
    const asXpub = HDKey.fromMasterSeed(testSeed()).derive("m/84'/0'/0'").publicExtendedKey;
    expect(asXpub.startsWith('xpub')).toBe(true);
    expect(isSandboxKey(asXpub)).toBe(true);
    // Another account of the same mnemonic is not a sandbox key; nor is garbage.
    const other = HDKey.fromMasterSeed(testSeed(), { public: 0x04b24746, private: 0x04b2430c }).derive("m/84'/0'/1'").publicExtendedKey;
    expect(isSandboxKey(other)).toBe(false);
    expect(isSandboxKey('not a key')).toBe(false);
  });
});
