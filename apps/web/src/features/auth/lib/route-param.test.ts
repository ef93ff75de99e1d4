import { describe, expect, it } from 'vitest';
import { decodeParam, inviteToken } from './route-param';

describe('decodeParam', () => {
  it('decodes what the router leaves encoded', () => {
    expect(decodeParam('ann%40example.com')).toBe('ann@example.com');
    expect(decodeParam('a%2Bb%40example.com')).toBe('a+b@example.com');
  });

  it('keeps malformed or empty input as it is', () => {
    expect(decodeParam('100%')).toBe('100%');
    expect(decodeParam(undefined)).toBe('');
  });
});

describe('inviteToken', () => {
  it('drops the leading # of the hash', () => {
    expect(inviteToken('#abc123')).toBe('abc123');
    expect(inviteToken('')).toBe('');
    expect(inviteToken('#')).toBe('');
  });
});
