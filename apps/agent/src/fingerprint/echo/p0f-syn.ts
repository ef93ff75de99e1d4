import type { FingerprintEchoResult } from '@cellport/shared/fingerprint-presets';

// Reading Debian's p0f (3.09b): its report of a SYN, as printed on stdout, turned into what the fingerprint echo
// answers (fingerprintEchoResultSchema). p0f's raw signature is `ver:ittl+dist:olen:mss:wsize,scale:olayout:quirks:pclass`,
// with the window written as a multiple of the MSS or MTU when it is one (`mss*44`).

export interface P0fSyn {
  client: string;
  clientPort: number;
  serverPort: number;
  /** p0f's label ("Windows NT kernel", "Linux (Android)"), or null when it knows none ("???"). */
  label: string | null;
  rawSig: string;
}

/** Splits p0f's stdout into its SYN reports (one block per SYN: `.-[ cli/port -> srv/port (syn) ]-` … `` `---- ``). */
export class P0fSynReader {
  private block: string[] | null = null;

  constructor(private readonly onSyn: (syn: P0fSyn) => void) {}

  line(text: string): void {
    if (text.startsWith('.-[')) {
      this.block = [text];
      return;
    }
    if (this.block === null) return;
    if (text.startsWith('`----')) {
      const syn = parseBlock(this.block);
      this.block = null;
      if (syn) this.onSyn(syn);
      return;
    }
    this.block.push(text);
  }
}

function parseBlock(lines: string[]): P0fSyn | null {
  const head = /^\.-\[ (\S+)\/(\d+) -> (\S+)\/(\d+) \(syn\) \]-/.exec(lines[0]!);
  if (!head) return null;
  const field = (name: string) => lines.map((l) => new RegExp(`^\\| ${name}\\s+= (.*)$`).exec(l)?.[1]).find((v) => v !== undefined);
  const rawSig = field('raw_sig');
  if (rawSig === undefined) return null;
  const os = field('os')?.trim();
  return { client: head[1]!, clientPort: Number(head[2]), serverPort: Number(head[4]), label: !os || os === '???' ? null : os, rawSig };
}

/**
 * One spelling per address, so p0f's report and Node's socket meet: IPv4-mapped IPv6 as IPv4, and IPv6 in its
 * shortest form (p0f writes every group, `fd00:0:0:0:0:0:0:1`; Node writes `fd00::1`).
 */
export const canonicalAddress = (address: string): string => {
  const plain = address.replace(/^::ffff:(?=\d+\.)/, '');
  if (!plain.includes(':')) return plain;
  try {
    return new URL(`http://[${plain}]/`).hostname.slice(1, -1);
  } catch {
    return plain;
  }
};

const OPTION_KINDS: Record<string, string> = { mss: '2', nop: '1', ws: '3', sok: '4', ts: '8', eol: '0' };

/** What the echo answers for one SYN p0f reported. */
export function echoResultOf(syn: P0fSyn): FingerprintEchoResult {
  const [version, ttlField, , mssField, windowField, layoutField] = syn.rawSig.split(':');
  // p0f writes the TTL as it arrived and the hops it guesses since the sender (`118+10`: 118 arrived, sent as 128).
  const [arrivedText, distText] = (ttlField ?? '').split('+');
  const arrived = Number.parseInt(arrivedText ?? '', 10);
  const distance = Number.parseInt(distText ?? '0', 10) || 0;
  const mss = mssField === '*' || mssField === undefined ? null : Number(mssField);
  const [windowText, scaleText] = (windowField ?? '').split(',');
  const options = (layoutField ?? '').split(',').filter(Boolean);
  const scale = options.includes('ws') && scaleText !== undefined ? Number(scaleText) : null;
  const window = windowOf(windowText ?? '', mss, version === '6' ? 60 : 40);
  const kinds = options.flatMap((o) => {
    const eol = /^eol\+(\d+)$/.exec(o);
    if (eol) return Array.from({ length: Number(eol[1]) + 1 }, () => '0');
    return OPTION_KINDS[o] ? [OPTION_KINDS[o]!] : [];
  });
  return {
    ip: canonicalAddress(syn.client),
    ttl: arrived,
    initialTtl: arrived + distance,
    window,
    windowScale: scale,
    mss,
    options,
    p0f: { signature: syn.rawSig, label: syn.label },
    ja4t: `${window}_${kinds.join('-')}_${mss ?? 0}_${scale ?? 0}`,
  };
}

function windowOf(text: string, mss: number | null, headers: number): number {
  const multiple = /^(mss|mtu)\*(\d+)$/.exec(text);
  if (!multiple) return Number(text);
  const unit = multiple[1] === 'mss' ? mss ?? 0 : (mss ?? 0) + headers;
  return unit * Number(multiple[2]);
}
