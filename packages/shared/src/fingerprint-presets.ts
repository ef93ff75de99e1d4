/**
 * OS fingerprint presets (issue 30): what the first packet of a connection leaving a port looks like, so a site
 * that reads the TCP/IP fingerprint (p0f, JA4T, Zardaxt) sees the OS the customer's browser claims, not a Linux
 * proxy. This file is the one place the presets are described; the agent turns them into kernel settings, the
 * server and the dashboard list them, and the CI namespace test checks the SYN p0f sees against `p0f` here.
 *
 * Facts come from p0f 3.09b's own database (Debian's /etc/p0f/p0f.fp) and JA4T's format
 * (`window_options_mss_scale`, options as TCP option kinds: 2 mss, 1 nop, 3 ws, 4 sok, 8 ts, 0 eol).
 */
import * as z from 'zod/mini';
import { FINGERPRINT_PRESET_IDS, type FingerprintPresetId } from './fingerprint-preset-ids.js';

export * from './fingerprint-preset-ids.js';
export const fingerprintPresetIdSchema = z.enum(FINGERPRINT_PRESET_IDS);

/** A TCP option in the SYN, in p0f's spelling. `eol` is followed by the zero padding p0f counts (`eol+1`). */
export type TcpOptionName = 'mss' | 'nop' | 'ws' | 'sok' | 'ts' | 'eol';

export interface FingerprintPreset {
  readonly id: FingerprintPresetId;
  /** The initial TTL (IPv4) and hop limit (IPv6) a site sees, after the host's own hops are compensated. */
  readonly ttl: number;
  /** The SYN's window field, at `mss` below. */
  readonly window: number;
  readonly windowScale: number;
  readonly mss: number;
  /** The option layout, in order, as p0f writes it. */
  readonly options: readonly TcpOptionName[];
  /** Whether the SYN carries a timestamp option (and so whether later segments do). */
  readonly timestamps: boolean;
  /** IPv4 "don't fragment". Every preset sets it, as every modern OS does. */
  readonly df: boolean;
  /** The p0f v3 raw signature the far end should record, and the label p0f gives it. */
  readonly p0f: { readonly signature: string; readonly label: string };
  readonly ja4t: string;
}

const OPTION_KIND: Record<TcpOptionName, string> = { mss: '2', nop: '1', ws: '3', sok: '4', ts: '8', eol: '0-0' };

/** JA4T of a layout: `window_kinds_mss_scale` (the eol's one byte of padding is counted as a second 0). */
export function ja4tOf(preset: Pick<FingerprintPreset, 'window' | 'options' | 'mss' | 'windowScale'>): string {
  return `${preset.window}_${preset.options.map((o) => OPTION_KIND[o]).join('-')}_${preset.mss}_${preset.windowScale}`;
}

/** p0f's raw TCP signature of a layout: `ver:ttl:olen:mss:wsize,scale:olayout:quirks:pclass`. */
export function p0fSignatureOf(preset: Omit<FingerprintPreset, 'p0f' | 'ja4t' | 'id'>): string {
  const layout = preset.options.map((o) => (o === 'eol' ? 'eol+1' : o)).join(',');
  const quirks = preset.df ? 'df,id+' : '';
  return `*:${preset.ttl}:0:${preset.mss}:${preset.window},${preset.windowScale}:${layout}:${quirks}:0`;
}

function preset(
  id: FingerprintPresetId,
  shape: Omit<FingerprintPreset, 'id' | 'p0f' | 'ja4t'>,
  label: string,
): FingerprintPreset {
  return { id, ...shape, p0f: { signature: p0fSignatureOf(shape), label }, ja4t: ja4tOf(shape) };
}

const MSS = 1460;

export const FINGERPRINT_PRESETS: Readonly<Record<FingerprintPresetId, FingerprintPreset>> = {
  // What Linux sends on its own (Debian 12's kernel defaults): the port adds nothing.
  native: preset(
    'native',
    { ttl: 64, window: 64240, windowScale: 7, mss: MSS, options: ['mss', 'sok', 'ts', 'nop', 'ws'], timestamps: true, df: true },
    'Linux',
  ),
  // Windows 10/11: p0f `*:128:0:*:*,*:mss,nop,ws,nop,nop,sok:df,id+:0` ("Windows NT kernel"), window 64240 at MSS
  // 1460, scale 8, no timestamps.
  windows: preset(
    'windows',
    { ttl: 128, window: 64240, windowScale: 8, mss: MSS, options: ['mss', 'nop', 'ws', 'nop', 'nop', 'sok'], timestamps: false, df: true },
    'Windows NT kernel',
  ),
  // macOS: window 65535, scale 6, timestamps, the Apple layout ending in eol+1 (p0f's catch-all "Mac OS X").
  macos: preset(
    'macos',
    { ttl: 64, window: 65535, windowScale: 6, mss: MSS, options: ['mss', 'nop', 'ws', 'nop', 'nop', 'ts', 'sok', 'eol'], timestamps: true, df: true },
    'Mac OS X',
  ),
  // iOS: the macOS layout at scale 2 (p0f `*:64:0:*:65535,2:…` "iOS: iPhone or iPad").
  ios: preset(
    'ios',
    { ttl: 64, window: 65535, windowScale: 2, mss: MSS, options: ['mss', 'nop', 'ws', 'nop', 'nop', 'ts', 'sok', 'eol'], timestamps: true, df: true },
    'iOS',
  ),
  // Android: the Linux layout with window mss*44 at scale 3 (p0f "Linux (Android)").
  android: preset(
    'android',
    { ttl: 64, window: MSS * 44, windowScale: 3, mss: MSS, options: ['mss', 'sok', 'ts', 'nop', 'ws'], timestamps: true, df: true },
    'Linux (Android)',
  ),
};

export const fingerprintPresetSchema = z.object({
  id: fingerprintPresetIdSchema,
  ttl: z.number().check(z.int()),
  window: z.number().check(z.int()),
  windowScale: z.number().check(z.int()),
  mss: z.number().check(z.int()),
  options: z.array(z.enum(['mss', 'nop', 'ws', 'sok', 'ts', 'eol'])),
  timestamps: z.boolean(),
  df: z.boolean(),
  p0f: z.object({ signature: z.string(), label: z.string() }),
  ja4t: z.string(),
});

/**
 * What the fingerprint echo (issue 30, item 5) saw of the SYN that opened a connection to it, as it answers on that
 * connection: the customer's "what a site sees".
 */
export const fingerprintEchoResultSchema = z.object({
  /** The address the connection came from: the port's public IP. */
  ip: z.string(),
  /** The TTL or hop limit as it arrived, and the initial value it implies (the next of 64, 128, 255 at or above). */
  ttl: z.number().check(z.int()),
  initialTtl: z.number().check(z.int()),
  window: z.number().check(z.int()),
  windowScale: z.nullable(z.number().check(z.int())),
  mss: z.nullable(z.number().check(z.int())),
  options: z.array(z.string()),
  p0f: z.object({ signature: z.string(), label: z.nullable(z.string()) }),
  ja4t: z.string(),
});
export type FingerprintEchoResult = z.infer<typeof fingerprintEchoResultSchema>;
