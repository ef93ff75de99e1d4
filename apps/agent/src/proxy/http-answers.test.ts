import { describe, expect, it } from 'vitest';
import { hostField, parseAbsolute } from './http-answers.js';

// A client that sends no Host (HTTP/1.0) gets one made from its absolute URI: the target must read back the same
// authority, an IPv6 literal in brackets (without them "::1:8080" names another address and no port).
describe('the Host field made from an absolute URI', () => {
  const made = (url: string) => {
    const target = parseAbsolute(url);
    if (!target) throw new Error(`not parsed: ${url}`);
    return hostField(target[0], target[1]);
  };

  it('keeps a name or an IPv4 address as written, the port only when not 80', () => {
    expect(made('http://example.com/a')).toBe('example.com');
    expect(made('http://example.com:8080/a')).toBe('example.com:8080');
    expect(made('http://192.0.2.1:80/')).toBe('192.0.2.1');
  });

  it('puts an IPv6 literal in brackets', () => {
    expect(made('http://[::1]:8080/x')).toBe('[::1]:8080');
    expect(made('http://[2001:db8::5]/')).toBe('[2001:db8::5]');
  });
});
