// Prints a throwaway BIP84 zpub and TRON xpub from a random seed that is never kept: production mode refuses the
// public sandbox keys, so check.sh starts the image's server with these. Nothing can ever spend what they receive,
// and the check makes no payment. Read from stdin by Node inside the image (cwd apps/server, for @scure/bip32).
import { randomBytes } from 'node:crypto';
import { HDKey } from '@scure/bip32';

const seed = randomBytes(32);
const zpub = HDKey.fromMasterSeed(seed, { private: 0x04b2430c, public: 0x04b24746 }).derive("m/84'/0'/0'").publicExtendedKey;
const xpub = HDKey.fromMasterSeed(seed).derive("m/44'/195'/0'").publicExtendedKey;
console.log(`${zpub} ${xpub}`);
