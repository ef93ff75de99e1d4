import { describe, expect, it } from 'vitest';
import { rateNote } from './rate-note';

const created = '2026-12-03T12:00:00.000Z';
const btc = (at: string, sandbox = false) => ({ coin: 'btc' as const, rate: { usd: '64250.5', at, sandbox } });

describe('the BTC rate note of the crypto modal (issue 14, item 12)', () => {
  it('says nothing about a fresh ticker rate', () => {
    expect(rateNote(btc('2026-12-03T11:59:10.000Z'), created)).toBeNull();
    expect(rateNote(btc('2026-12-03T11:50:00.000Z'), created)).toBeNull();
  });

  it('gives the time of a stale one', () => {
    expect(rateNote(btc('2026-12-03T11:49:59.000Z'), created)).toEqual({ kind: 'stale', usd: '64250.5', at: '2026-12-03T11:49:59.000Z' });
    expect(rateNote(btc('2026-12-03T09:00:00.000Z'), created)).toMatchObject({ kind: 'stale' });
  });

  it('always names the sandbox rate', () => {
    expect(rateNote({ coin: 'btc', rate: { usd: '100000', at: created, sandbox: true } }, created)).toEqual({ kind: 'sandbox', usd: '100000' });
  });

  it('has nothing to say for USDT or a payment made before rates were kept', () => {
    expect(rateNote({ coin: 'usdt', rate: null }, created)).toBeNull();
    expect(rateNote({ coin: 'btc' }, created)).toBeNull();
  });
});
