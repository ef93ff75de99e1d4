/**
 * The sandbox TRON account key: the BIP32 xpub at m/44'/195'/0' of the public BIP39 test mnemonic
 * "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about".
 * Anyone can spend what is sent to its addresses, so it exists only to make development work without setup;
 * the config refuses it in production (see isSandboxKey in ../bitcoin/sandbox-key.ts).
 * Its first address, m/44'/195'/0'/0/0, is TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH (see tron-address.test.ts).
 */
export const SANDBOX_TRON_XPUB =
  'xpub6D1AabNHCupeiLM65ZR9UStMhJ1vCpyV4XbZdyhMZBiJXALQtmn9p42VTQckoHVn8WNqS7dqnJokZHAHcHGoaQgmv8D45oNUKx6DZMNZBCd';
