import { describe, expect, it } from 'vitest';
import { fingerprintEchoResultSchema, FINGERPRINT_PRESETS } from '@cellport/shared/fingerprint-presets';
import { canonicalAddress, echoResultOf, P0fSynReader, type P0fSyn } from './p0f-syn.js';

// p0f 3.09b's stdout report of a SYN, as Debian's p0f prints it, read into the echo's answer. Its TTL field is the TTL
// as it arrived and the hops p0f guesses (`63+1`: sent as 64, one router on the way).
const REPORT = `
.-[ 198.51.100.7/51234 -> 100.128.0.10/9443 (syn) ]-
|
| client   = 198.51.100.7/51234
| os       = Mac OS X
| dist     = 1
| params   = none
| raw_sig  = 4:63+1:0:1460:65535,6:mss,nop,ws,nop,nop,ts,sok,eol+1:df,id+:0
|
\`----

.-[ 198.51.100.7/51234 -> 100.128.0.10/9443 (mtu) ]-
|
| client   = 198.51.100.7/51234
| raw_mtu  = 1500
|
\`----
`;

function read(text: string): P0fSyn[] {
  const out: P0fSyn[] = [];
  const reader = new P0fSynReader((syn) => out.push(syn));
  for (const line of text.split('\n')) reader.line(line);
  return out;
}

describe('p0f SYN reports', () => {
  it('reads the SYN block (not the mtu one) and answers what the far end saw, JA4T included', () => {
    const [syn, ...rest] = read(REPORT);
    expect(rest).toEqual([]);
    expect(syn).toEqual({ client: '198.51.100.7', clientPort: 51234, serverPort: 9443, label: 'Mac OS X', rawSig: '4:63+1:0:1460:65535,6:mss,nop,ws,nop,nop,ts,sok,eol+1:df,id+:0' });
    const result = echoResultOf(syn!);
    expect(fingerprintEchoResultSchema.parse(result)).toEqual({
      ip: '198.51.100.7', ttl: 63, initialTtl: 64, window: 65535, windowScale: 6, mss: 1460,
      options: ['mss', 'nop', 'ws', 'nop', 'nop', 'ts', 'sok', 'eol+1'],
      p0f: { signature: syn!.rawSig, label: 'Mac OS X' },
      ja4t: FINGERPRINT_PRESETS.macos.ja4t,
    });
  });

  it('turns a window written as a multiple of the MSS back into bytes; an unknown OS is a null label', () => {
    const [syn] = read(REPORT.replace('Mac OS X', '???').replace('65535,6:mss,nop,ws,nop,nop,ts,sok,eol+1', 'mss*44,3:mss,sok,ts,nop,ws'));
    const result = echoResultOf(syn!);
    expect(result.window).toBe(64240);
    expect(result.p0f.label).toBeNull();
    expect(result.ja4t).toBe(FINGERPRINT_PRESETS.android.ja4t);
  });

  it('an IPv6 SYN: p0f writes every group of the address, the answer the shortest form (as Node does)', () => {
    const v6 = REPORT.replaceAll('198.51.100.7', 'fd00:231:0:0:0:0:0:1').replace('4:63+1:0:1460:65535,6:mss,nop,ws,nop,nop,ts,sok,eol+1:df,id+:0', '6:128+0:0:1440:mss*45,8:mss,nop,ws,nop,nop,sok::0');
    const [syn] = read(v6);
    expect(syn!.client).toBe('fd00:231:0:0:0:0:0:1');
    expect(echoResultOf(syn!)).toMatchObject({ ip: 'fd00:231::1', ttl: 128, window: 64800, windowScale: 8, mss: 1440, ja4t: '64800_2-1-3-1-1-4_1440_8' });
    expect([canonicalAddress('::ffff:198.51.100.7'), canonicalAddress('FD00:0231::0001'), canonicalAddress('198.51.100.7')]).toEqual(['198.51.100.7', 'fd00:231::1', '198.51.100.7']);
  });

  it('a SYN without window scaling or MSS has null for them', () => {
    const [syn] = read(REPORT.replace('4:63+1:0:1460:65535,6:mss,nop,ws,nop,nop,ts,sok,eol+1', '4:128+0:0:*:8192,0:nop,nop,sok'));
    expect(echoResultOf(syn!)).toMatchObject({ ttl: 128, initialTtl: 128, window: 8192, windowScale: null, mss: null, ja4t: '8192_1-1-4_0_0' });
  });
});
