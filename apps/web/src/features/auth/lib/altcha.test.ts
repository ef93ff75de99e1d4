import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { altchaPayload, sha256Hex, solveAltcha } from './altcha';

const hex = (text: string) => createHash('sha256').update(text).digest('hex');

describe('sha256Hex', () => {
  it('matches node:crypto', async () => {
    expect(await sha256Hex('salt?expires=1&42')).toBe(hex('salt?expires=1&42'));
  });
});

describe('solveAltcha', () => {
  it('finds the number whose salted hash is the challenge, across batches', async () => {
    const salt = 'f00d1e?expires=1999999999&';
    const challenge = hex(salt + 1234);
    expect(await solveAltcha({ challenge, maxnumber: 5000, salt }, { batch: 100 })).toBe(1234);
  });

  it('accepts the number at both ends of the range', async () => {
    const salt = 'ab';
    expect(await solveAltcha({ challenge: hex(`${salt}0`), maxnumber: 10, salt })).toBe(0);
    expect(await solveAltcha({ challenge: hex(`${salt}10`), maxnumber: 10, salt }, { batch: 3 })).toBe(10);
  });

  it('resolves null when no number in range matches', async () => {
    const salt = 'ab';
    expect(await solveAltcha({ challenge: hex(`${salt}50`), maxnumber: 49, salt }, { batch: 7 })).toBeNull();
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await solveAltcha({ challenge: hex('ab1'), maxnumber: 10, salt: 'ab' }, { signal: controller.signal })).toBeNull();
  });
});

describe('altchaPayload', () => {
  it('is base64 JSON of the challenge with the found number', () => {
    const challenge = { algorithm: 'SHA-256' as const, challenge: 'c', maxnumber: 9, salt: 's', signature: 'sig' };
    const decoded = JSON.parse(atob(altchaPayload(challenge, 7))) as unknown;
    expect(decoded).toEqual({ algorithm: 'SHA-256', challenge: 'c', number: 7, salt: 's', signature: 'sig' });
  });
});
