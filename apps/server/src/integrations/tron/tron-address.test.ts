import { describe, expect, it } from 'vitest';
import { HDKey } from '@scure/bip32';
import { deriveTronAddress, isTronAddress, parseTronAccountKey, tronAddressFromPublicKey } from './tron-address.js';
import { SANDBOX_TRON_XPUB } from './sandbox-key.js';
import { SANDBOX_BTC_ZPUB } from '../bitcoin/sandbox-key.js';

describe('TRON address derivation from an xpub at m/44\'/195\'/0\'', () => {
  it('matches the published first address of the "abandon … about" mnemonic', () => {
    // Source: the Ledger TRON app's example script (klever-io/trx-ledger, now LedgerHQ/app-tron,
    // examples/getPublicKey.py) checks m/44'/195'/0'/0/0 of a device seeded with "abandon … about" against
    // TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH; the same value is the expected sender in klever-io's kos-go wallet tests
    // and what Ian Coleman's BIP39 tool shows for coin TRX.
    expect(deriveTronAddress(SANDBOX_TRON_XPUB, 0)).toBe('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
  });

  it('derives further addresses that other implementations agree on', () => {
    // Cross-implementation check (independent Node.js and Swift derivations published together): index 1 and 2.
    const account = parseTronAccountKey(SANDBOX_TRON_XPUB);
    expect(account.address(1)).toBe('TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK');
    expect(account.address(2)).toBe('TYJPRrdB5APNeRs4R7fYZSwW3TcrTKw2gx');
  });

  it('computes the address from the private key path and from the public key alike', () => {
    // The server only ever has the public branch; the address must equal the one a wallet derives privately.
    const accountKey = HDKey.fromExtendedKey(SANDBOX_TRON_XPUB);
    const publicKey = accountKey.deriveChild(0).deriveChild(5).publicKey!;
    expect(tronAddressFromPublicKey(publicKey)).toBe(deriveTronAddress(SANDBOX_TRON_XPUB, 5));
  });

  it('validates TRON addresses', () => {
    expect(isTronAddress('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH')).toBe(true);
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true); // the USDT contract
    expect(isTronAddress('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdh')).toBe(false); // checksum broken
    expect(isTronAddress('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu')).toBe(false);
  });

  it('refuses a BIP84 zpub and bad indexes', () => {
    expect(() => parseTronAccountKey(SANDBOX_BTC_ZPUB)).toThrow(/expected xpub/);
    expect(() => deriveTronAddress(SANDBOX_TRON_XPUB, -1)).toThrow(RangeError);
  });
});
