import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { btcSettingsProblems } from './btc-settings.js';
import { SANDBOX_BTC_VPUB, SANDBOX_BTC_ZPUB } from './sandbox-key.js';
import { tronSettingsProblems } from '../tron/tron-settings.js';
import { SANDBOX_TRON_XPUB } from '../tron/sandbox-key.js';

// A real-looking account key that is not the sandbox one: BIP84 account 1 of the test mnemonic.
const OTHER_ZPUB = 'zpub6rFR7y4Q2AijF6Gk1bofHLs1d66hKFamhXWdWBup1Em25wfabZqkDqvaieV63fDQFaYmaatCG7jVNUpUiM2hAMo6SAVHcrUpSnHDpNzucB7';

describe('crypto settings', () => {
  it('default to the sandbox keys and public endpoints outside production', () => {
    const config = loadConfig({ NODE_ENV: 'test' });
    expect(config.BTC_XPUB).toBe(SANDBOX_BTC_ZPUB);
    expect(config.TRON_XPUB).toBe(SANDBOX_TRON_XPUB);
    expect(config.ESPLORA_URL).toBe('https://blockstream.info/api');
    expect(config.BTC_CONFIRMATIONS).toBe(2);
    expect(config.TRONGRID_URL).toBe('https://api.trongrid.io');
    expect(config.TRONGRID_API_KEY).toBeUndefined();
    expect(config.USDT_CONTRACT).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    expect(config.RATE_TICKER_URL).toBe('https://blockchain.info/ticker');
  });

  it('refuse the sandbox keys in production only', () => {
    expect(btcSettingsProblems({ BTC_XPUB: SANDBOX_BTC_ZPUB }, false)).toEqual([]);
    expect(btcSettingsProblems({ BTC_XPUB: SANDBOX_BTC_ZPUB }, true)[0]).toMatch(/sandbox/);
    expect(btcSettingsProblems({ BTC_XPUB: SANDBOX_BTC_VPUB }, true)[0]).toMatch(/sandbox/);
    expect(tronSettingsProblems({ TRON_XPUB: SANDBOX_TRON_XPUB, USDT_CONTRACT: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' }, true)[0]).toMatch(/sandbox/);
  });

  it('accept a real account key in production', () => {
    expect(btcSettingsProblems({ BTC_XPUB: OTHER_ZPUB }, true)).toEqual([]);
  });

  it('explain a wrong key or contract at start-up', () => {
    expect(btcSettingsProblems({ BTC_XPUB: SANDBOX_TRON_XPUB }, false)[0]).toMatch(/^BTC_XPUB: unexpected key type/);
    expect(tronSettingsProblems({ TRON_XPUB: 'xpub123', USDT_CONTRACT: 'nope' }, false)).toEqual([
      expect.stringMatching(/^TRON_XPUB: not a base58check/),
      'USDT_CONTRACT is not a TRON address',
    ]);
    expect(() => loadConfig({ NODE_ENV: 'test', BTC_XPUB: 'zpub-typo' })).toThrow(/BTC_XPUB/);
    expect(() => loadConfig({ NODE_ENV: 'test', BTC_CONFIRMATIONS: '0' })).toThrow(/BTC_CONFIRMATIONS/);
  });
});
