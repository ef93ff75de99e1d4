import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Socket, type OnReadOpts, type SocketConstructorOpts } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FINGERPRINT_PRESETS, type FingerprintPresetId } from '@cellport/shared/fingerprint-presets';
import type { HostFingerprintReport } from '@cellport/shared/schemas/host-protocol';
import type { Logger } from '../proxy/types.js';
import { FingerprintUnavailable, type FingerprintEgress } from './fingerprint-egress.js';
import { buildOnHost, builtPath } from './host-build.js';
import { nodeHeaders, presetSockets, type PresetSockets } from './preset-socket.js';

// The host side of the fingerprint presets (issue 30; docs/decisions/051-fingerprint-presets-per-socket.md). A preset connection
// is a socket of the host's own, bound to the modem's egress address like a native one, made with the options that
// shape its SYN (preset-socket.c: the window clamp sets the scale, a mark says the preset, TTL 1 until rewritten), and
// a tc-eBPF program on the egress of the modem's interface (preset-syn-rewrite.bpf.c) writes the preset's option
// layout, window and TTL into what leaves. A second program after it drops any marked packet the first did not pass:
// a detached rewrite fails closed. No namespace, forwarding or NAT lies on the connection's path.

type Preset = Exclude<FingerprintPresetId, 'native'>;
const exec = promisify(execFile);

export interface FingerprintHostOptions {
  log: Logger;
  /** Where the preset socket addon and the egress program are built (once per source version). */
  dataDir: string;
  /**
   * The tc filter preference of this agent's egress program (its check at the next one): two agents on one machine
   * (the demo and a test, say) never remove each other's. Both run the same stateless program, so either serves both.
   */
  filterPreference?: number;
  /**
   * How often the programs' presence on the interfaces is checked, driven by the ports' problem() (the heartbeat asks
   * every few seconds); Infinity: only when verify() is called (tests that break a program on purpose).
   */
  verifyEveryMs?: number;
  /** How long a failed setup's reason is given before the next connection tries the setup again (5 s). */
  retryAfterMs?: number;
}

/** The mark of a preset socket, which the egress program reads (preset-syn-rewrite.bpf.c): magic, scale, layout, TTL. */
const MARK_MAGIC = 0x43500000;
const LAYOUT: Record<Preset, number> = { windows: 1, macos: 2, ios: 2, android: 3 };
export const presetMark = (preset: Preset, ttl: number): number =>
  (MARK_MAGIC | (FINGERPRINT_PRESETS[preset].windowScale << 12) | (LAYOUT[preset] << 8) | (ttl & 0xff)) >>> 0;

const isLoopback = (address: string) => /^127\./.test(address) || address === '::1';
const familyOf = (address: string): 4 | 6 => (address.includes(':') ? 6 : 4);

/** Whether this host can apply presets at all, and why not. */
export async function probeFingerprintSupport(): Promise<HostFingerprintReport> {
  if (process.platform !== 'linux') return { supported: false, reason: 'Fingerprint presets need a Linux host.' };
  if (process.getuid?.() !== 0) return { supported: false, reason: 'The agent does not run as root, so it cannot set up the kernel programs the presets need.' };
  for (const tool of ['ip', 'tc']) {
    try {
      await exec(tool, ['-V']);
    } catch {
      return { supported: false, reason: `The ${tool} command is missing on this host (Debian: iproute2).` };
    }
  }
  // The preset socket maker and the egress program are built here on first use (host-build.ts).
  if (!(await works('cc')) && !(await works('gcc')) && !(await works('clang'))) return { supported: false, reason: 'No C compiler on this host (Debian: gcc or clang): the agent builds its preset helpers with it.' };
  if (!existsSync(join(nodeHeaders(), 'node_api.h'))) return { supported: false, reason: `Node's headers (node_api.h) are missing in ${nodeHeaders()}: the agent builds its preset helpers against them.` };
  if (!(await works('clang'))) return { supported: false, reason: 'clang is missing on this host (Debian: clang and libbpf-dev): the agent builds its preset egress program with it.' };
  return { supported: true };
}

async function works(cc: string): Promise<boolean> {
  try {
    await exec(cc, ['--version']);
    return true;
  } catch {
    return false;
  }
}

/** What one egress address needs, set up once: the addon, the interface's programs, the host's buffer limit. */
interface Egress {
  device: string | null;
  /** max(tcp_rmem[2], rmem_max): the window the kernel plans a scale for without a socket's own buffer. */
  bufferLimit: number;
  ready: Promise<void>;
  sockets: PresetSockets | null;
  /** Why its setup failed, with `{preset}` where the port's preset is named (problemText), or null. */
  problem: string | null;
  failedAt: number;
}

/** A failed setup's reason, for every preset of the egress (problemText names the one asked for). */
const setupProblem = (err: unknown): string => `The {preset} preset could not be set up on this host: ${(err as Error).message}`.slice(0, 300);
const problemText = (problem: string, preset: string): string => problem.replace('{preset}', preset);

export class FingerprintHost {
  private readonly egresses = new Map<string, Egress>();
  /** Interfaces this agent attached its programs to, with the object attached. */
  private readonly attached = new Map<string, string>();
  private readonly pref: number;
  private closed = false;
  private verifiedAt = 0;
  private cleaned: Promise<void> | null = null;
  private verifying: Promise<void> | null = null;
  /** The host's buffer limit (Egress.bufferLimit), read once. */
  private bufferLimit: Promise<number> | null = null;

  constructor(private readonly options: FingerprintHostOptions) {
    this.pref = options.filterPreference ?? 0xc000;
  }

  /** This agent's filter preference, from its data folder (namesFor's only field; the agent passes it on). */
  static namesFor(dataDir: string): Pick<FingerprintHostOptions, 'filterPreference'> {
    const n = parseInt(createHash('sha256').update(dataDir).digest('hex').slice(0, 4), 16) % 0x1000;
    return { filterPreference: 0xc000 + n * 2 };
  }

  /** Removes what a previous agent with this preference left on the host's interfaces (it was killed). */
  async cleanUp(): Promise<void> {
    const links = JSON.parse((await exec('ip', ['-j', 'link', 'show'])).stdout || '[]') as Array<{ ifname: string }>;
    for (const { ifname } of links) await this.detach(ifname);
  }

  /** One modem's view: its presets' sockets, with `hops` after the host (a HiLink's NAT) compensated. */
  forModem(imei: string, hops: number): FingerprintEgress {
    return {
      prepare: (preset, egress) => { void this.ensure(egress, `${imei}/${preset}`).catch(() => undefined); },
      ready: (_preset, egress) => this.egresses.get(egress)?.sockets != null,
      whenReady: async (preset, egress) => {
        const e = await this.ensure(egress, `${imei}/${preset}`);
        if (e.sockets === null) throw new FingerprintUnavailable(e.problem !== null ? problemText(e.problem, preset) : 'The preset is not set up.');
      },
      socket: (preset, egress, onread) => this.socket(preset, egress, hops, onread),
      datagramTtl: (preset) => FINGERPRINT_PRESETS[preset].ttl + hops,
      problem: (preset) => this.problemOf(imei, preset),
    };
  }

  /** The problem of the egress a modem's port would leave by, if any (its preset's ports refuse meanwhile). */
  private problemOf(imei: string, preset: Preset): string | null {
    this.maybeVerify();
    for (const [address, e] of this.egresses) {
      if (e.problem === null || !this.usedBy.get(address)?.has(`${imei}/${preset}`)) continue;
      if (Date.now() - e.failedAt >= (this.options.retryAfterMs ?? 5_000)) this.egresses.delete(address); // the next connection retries
      return problemText(e.problem, preset);
    }
    return null;
  }

  /** Which modem ports (imei/preset) asked for each egress: whose problem a failed setup is. */
  private readonly usedBy = new Map<string, Set<string>>();

  /** Failing presets per modem, for the heartbeat (the host agent maps them to its ports). */
  problems(): Map<string, string> {
    const out = new Map<string, string>();
    for (const [address, e] of this.egresses) {
      if (e.problem === null) continue;
      for (const key of this.usedBy.get(address) ?? []) out.set(key, problemText(e.problem, key.split('/')[1]!));
    }
    return out;
  }

  /** An unconnected socket of the preset on a set-up egress (FingerprintEgress.socket). */
  private socket(preset: Preset, egress: string, hops: number, onread: OnReadOpts | undefined): Socket {
    const e = this.egresses.get(egress);
    if (e === undefined || e.sockets === null) throw new FingerprintUnavailable(e?.problem ? problemText(e.problem, preset) : 'The preset is not set up on this egress yet.');
    const scale = FINGERPRINT_PRESETS[preset].windowScale;
    const clamp = 2 ** (15 + scale);
    // The scale is planned for max(the host's buffers, the window clamp): a host whose buffers are smaller than the
    // scale needs gets a receive buffer of the socket's own, which also fixes it (no autotuning), for this socket only.
    const receiveBuffer = clamp > e.bufferLimit ? clamp * 2 : 0;
    // A simulated modem (loopback, MTU 64 KiB) announces an ordinary link's MSS; a real modem's interface gives its own.
    const maxSegment = e.device === 'lo' ? (familyOf(egress) === 4 ? 1460 : 1440) : 0;
    const fd = e.sockets.presetSocket(familyOf(egress), egress, presetMark(preset, FINGERPRINT_PRESETS[preset].ttl + hops), clamp, receiveBuffer, maxSegment);
    return adopt(fd, onread);
  }

  /** The egress's setup, made on its first use (and again after a failure, once problemOf() dropped it: retryAfterMs). */
  private ensure(egress: string, asker?: string): Promise<Egress> {
    if (this.closed) return Promise.reject(new FingerprintUnavailable('The agent is stopping.'));
    if (asker !== undefined) this.track(egress, asker);
    let e = this.egresses.get(egress);
    if (e === undefined) {
      const made: Egress = { device: null, bufferLimit: 0, ready: Promise.resolve(), sockets: null, problem: null, failedAt: 0 };
      made.ready = this.setUp(egress, made).catch((err: unknown) => {
        made.problem = setupProblem(err);
        made.failedAt = Date.now();
        this.options.log.error({ egress, err: String(err) }, 'Fingerprint presets could not be set up; the ports with presets refuse new connections');
      });
      this.egresses.set(egress, made);
      e = made;
    }
    const settled = e;
    return settled.ready.then(() => settled);
  }

  private track(egress: string, key: string): void {
    let set = this.usedBy.get(egress);
    if (set === undefined) this.usedBy.set(egress, (set = new Set()));
    set.add(key);
  }

  private async setUp(egress: string, e: Egress): Promise<void> {
    const sockets = await presetSockets(this.options.dataDir);
    const timestamps = (await readFile('/proc/sys/net/ipv4/tcp_timestamps', 'utf8').catch(() => '1')).trim();
    // The program rewrites Linux's timestamp layout: a host that sends none has a SYN it does not know.
    if (timestamps === '0') throw new Error('the host has TCP timestamps off (net.ipv4.tcp_timestamps=0); the presets start from the SYN Linux sends with them');
    const device = isLoopback(egress) ? 'lo' : await deviceOf(egress);
    // What an earlier run of this agent left (it was killed) goes before its first attach.
    await (this.cleaned ??= this.cleanUp().catch(() => undefined));
    await this.attach(device);
    // Other egresses of this interface that failed with it (verify() could not attach again) are set up anew.
    for (const [address, other] of this.egresses) if (other !== e && other.device === device && other.problem !== null) this.egresses.delete(address);
    e.bufferLimit = await (this.bufferLimit ??= readBufferLimit());
    e.device = device;
    e.sockets = sockets;
  }

  /** Attaches the rewrite and its check to the interface's egress, unless this agent already has. */
  private async attach(device: string): Promise<void> {
    const object = await buildEgressProgram(this.options.dataDir, await l3Offset(device));
    if (this.attached.get(device) === object) return;
    await exec('tc', ['qdisc', 'add', 'dev', device, 'clsact']).catch((err: { stderr?: string }) => {
      if (!/File exists|Exclusivity flag on/.test(err.stderr ?? '')) throw new Error(`tc qdisc add dev ${device} clsact: ${err.stderr ?? err}`);
    });
    // The check first, then the rewrite before it: at no moment is the rewrite there without its check behind it.
    for (const [pref, section] of [[this.pref + 1, 'check'], [this.pref, 'tc']] as const) {
      await exec('tc', ['filter', 'replace', 'dev', device, 'egress', 'pref', String(pref), 'bpf', 'direct-action', 'obj', object, 'sec', section])
        .catch((err: { stderr?: string }) => { throw new Error(`tc filter ... bpf obj ${object} sec ${section} on ${device}: ${(err.stderr ?? String(err)).trim().slice(0, 160)}`); });
    }
    this.attached.set(device, object);
  }

  private async detach(device: string): Promise<void> {
    for (const pref of [this.pref, this.pref + 1]) await exec('tc', ['filter', 'del', 'dev', device, 'egress', 'pref', String(pref)]).catch(() => undefined);
    this.attached.delete(device);
  }

  /**
   * Whether the rewrite and its check are still on every interface they were attached to; what is missing is attached
   * again (a preset connection meanwhile was dropped by the check, or died at the first router: never sent native).
   */
  async verify(): Promise<void> {
    for (const [device] of [...this.attached]) {
      const filters = JSON.parse((await exec('tc', ['-j', 'filter', 'show', 'dev', device, 'egress']).catch(() => ({ stdout: '[]' }))).stdout || '[]') as Array<{ pref?: number; options?: unknown }>;
      const present = (pref: number) => filters.some((f) => f.pref === pref && f.options !== undefined);
      if (present(this.pref) && present(this.pref + 1)) continue;
      this.options.log.warn({ device }, 'Fingerprint: the preset egress programs were missing from the interface; attached again');
      this.attached.delete(device);
      await this.attach(device).catch((err: unknown) => {
        this.options.log.error({ device, err: String(err) }, 'Fingerprint: the preset egress programs could not be attached again');
        // Its egresses' ports refuse with the reason (not only time out at the check) and are set up anew later.
        for (const e of this.egresses.values()) {
          if (e.device !== device) continue;
          e.sockets = null;
          e.problem = setupProblem(err);
          e.failedAt = Date.now();
        }
      });
    }
  }

  private maybeVerify(): void {
    if (this.verifying !== null || this.attached.size === 0 || Date.now() - this.verifiedAt < (this.options.verifyEveryMs ?? 5_000)) return;
    this.verifiedAt = Date.now();
    this.verifying = this.verify().finally(() => { this.verifying = null; });
  }

  /** The interface a modem's egress leaves by (tests break its program to see the check drop the SYN). */
  deviceOf(egress: string): string | null {
    return this.egresses.get(egress)?.device ?? null;
  }

  /** The filter preference of this agent's rewrite (its check at the next). */
  get preference(): number {
    return this.pref;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const device of [...this.attached.keys()]) await this.detach(device);
  }
}

/** The interface holding the egress address (ip addr). */
async function deviceOf(egress: string): Promise<string> {
  const family = familyOf(egress);
  const addrs = JSON.parse((await exec('ip', ['-j', `-${family}`, 'addr', 'show'])).stdout || '[]') as Array<{ ifname: string; addr_info: Array<{ local: string }> }>;
  const device = addrs.find((a) => a.addr_info.some((i) => i.local === egress))?.ifname;
  if (device === undefined) throw new Error(`no interface holds the egress address ${egress}`);
  return device;
}

/** Where IP starts in what the interface sends: after an Ethernet header (Ethernet, loopback), or at once (raw IP). */
async function l3Offset(device: string): Promise<0 | 14> {
  const [link] = JSON.parse((await exec('ip', ['-j', 'link', 'show', 'dev', device])).stdout || '[]') as Array<{ link_type?: string }>;
  return link?.link_type === 'none' ? 0 : 14;
}

async function readBufferLimit(): Promise<number> {
  const rmem = Number((await readFile('/proc/sys/net/ipv4/tcp_rmem', 'utf8').catch(() => '0 0 0')).trim().split(/\s+/)[2]) || 0;
  const max = Number((await readFile('/proc/sys/net/core/rmem_max', 'utf8').catch(() => '0')).trim()) || 0;
  return Math.max(rmem, max);
}

/** A net.Socket over a fresh TCP descriptor (the socket owns it from here; it is closed by hand if Node refuses it). */
function adopt(fd: number, onread: OnReadOpts | undefined): Socket {
  // Node's Socket constructor takes `onread` (net.connect hands it its options); @types/node lists it only for connect.
  const options: SocketConstructorOpts & { onread?: OnReadOpts } = { fd, allowHalfOpen: true };
  if (onread) options.onread = onread;
  try {
    return new Socket(options);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** Debian's directory of the architecture's kernel headers (asm/types.h), which clang -target bpf does not search. */
const MULTIARCH: Record<string, string> = { x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu', arm: 'arm-linux-gnueabihf', ia32: 'i386-linux-gnu' };

const REWRITE = (l3: 0 | 14) => ['preset-syn-rewrite.bpf.c', `preset-syn-rewrite-l3-${l3}`, '.bpf.o'] as const;

/** Where the egress program's object is built (a test spoils it to see a program that cannot be attached fail closed). */
export const egressProgramObject = (dataDir: string, l3: 0 | 14 = 14): string => builtPath(dataDir, ...REWRITE(l3));

/** Builds the egress program with clang and Debian's libbpf-dev headers, once per source version and L3 offset. */
export function buildEgressProgram(dataDir: string, l3: 0 | 14): Promise<string> {
  const include = MULTIARCH[process.arch];
  return buildOnHost(dataDir, ...REWRITE(l3),
    ['-c', '-g', '-target', 'bpf', `-DL3_OFFSET=${l3}`, ...(include ? [`-I/usr/include/${include}`] : [])], 'clang and libbpf-dev', ['clang']);
}
