import { describe, expect, it } from 'vitest';
import { generateTotp, isFreshStep, newTotpSecret, totpStep, totpUri, verifyTotp } from './totp.js';

describe('totp', () => {
  const secret = newTotpSecret();
  const now = Date.UTC(2026, 10, 22, 12, 0, 10);

  it('accepts the current code and returns its step', () => {
    expect(verifyTotp(secret, generateTotp(secret, now), now)).toBe(totpStep(now));
  });
  it('accepts one step of drift either side and reports the step the code belongs to', () => {
    expect(verifyTotp(secret, generateTotp(secret, now - 30_000), now)).toBe(totpStep(now) - 1);
    expect(verifyTotp(secret, generateTotp(secret, now + 30_000), now)).toBe(totpStep(now) + 1);
  });
  it('refuses codes two steps away, wrong codes, malformed codes and malformed secrets', () => {
    expect(verifyTotp(secret, generateTotp(secret, now - 90_000), now)).toBeNull();
    const right = generateTotp(secret, now);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    expect(verifyTotp(secret, wrong, now)).toBeNull();
    expect(verifyTotp(secret, 'abcdef', now)).toBeNull();
    expect(verifyTotp(secret, '', now)).toBeNull();
    expect(verifyTotp('not base32 !!', '123456', now)).toBeNull();
  });
  it('a step is fresh only when newer than the last one used', () => {
    expect(isFreshStep(10, null)).toBe(true);
    expect(isFreshStep(10, 9n)).toBe(true);
    expect(isFreshStep(10, 10n)).toBe(false);
    expect(isFreshStep(10, 11n)).toBe(false);
  });
  it('builds an otpauth URI with SHA1, 6 digits, 30 s', () => {
    expect(totpUri(secret, 'a@b.c')).toMatch(/^otpauth:\/\/totp\/Cellport:a%40b\.c\?.*algorithm=SHA1&digits=6&period=30/);
  });
});
