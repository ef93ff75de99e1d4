import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { OnReadOpts, Socket } from 'node:net';
import { FINGERPRINT_PRESETS, type FingerprintPresetId } from '@cellport/shared/fingerprint-presets';
import type { HostFingerprintReport } from '@cellport/shared/schemas/host-protocol';
import type { Logger } from '../proxy/types.js';
import { FingerprintUnavailable, type FingerprintEgress } from './fingerprint-egress.js';
import { buildOnHost, builtPath } from './host-build.js';
import { parsePortRange, presetPortSlice, type PortRange } from './egress-port-slices.js';
import { NamespaceDialer } from './namespace-dialer.js';
import { namespaceSockets, nodeHeaders } from './namespace-socket.js';
import { isApple, renderNamespaceRuleset, renderRuleset, synShape, type PresetSlot } from './preset-ruleset.js';

// The host side of the fingerprint presets (issue 30; docs/decisions/037-fingerprint-presets.md). Each (modem,
// preset) in use gets a network namespace whose kernel sends the preset's SYN by itself: its sysctls give the TTL and
// timestamps, its routes' `window` metric the window scale, and its own rules the option layout (nftables for
// Windows, a tc-eBPF program on the veth's egress for Apple's longer one). A veth joins it to the host, which drops any SYN that is not
// exactly the preset's, forwards the rest by the modem's own routing table and SNATs them to the modem's egress address
// (a simulated modem's: delivered to this machine's 127.0.0.1). The agent's own thread makes each connection's socket
// inside the namespace (a small addon built on the host, namespace-socket.c) and connects it (namespace-dialer.ts).

type Preset = Exclude<FingerprintPresetId, 'native'>;
const exec = promisify(execFile);

export interface FingerprintHostOptions {
  log: Logger;
  /** Where the namespace socket addon and the Apple rewrite program are built (once per source version). */
  dataDir: string;
  /** Names: namespaces `<namespacePrefix>-<slot>`, host veth ends `<devicePrefix><slot>`, nft table `<devicePrefix>`. */
  namespacePrefix?: string;
  devicePrefix?: string;
}

interface Slot extends PresetSlot {
  imei: string;
  namespace: string;
  device: string;
  nsAddress: string;
  /** The veth's IPv6 ends (a unique-local /64 per slot), for a modem whose egress is IPv6. */
  hostAddress6: string;
  nsAddress6: string;
  table: string;
  dialer: NamespaceDialer | null;
  ready: Promise<void> | null;
  problem: string | null;
}

const isLoopback = (address: string) => /^127\./.test(address) || address === '::1';
const familyOf = (address: string): 4 | 6 => (address.includes(':') ? 6 : 4);

const run = async (cmd: string, args: string[], input?: string): Promise<string> => {
  if (input === undefined) return (await exec(cmd, args, { maxBuffer: 4 << 20 })).stdout;
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, args, (err, out, stderr) => (err ? reject(new Error(`${cmd} ${args.join(' ')}: ${stderr || err.message}`)) : resolve(out)));
    child.stdin!.end(input);
  });
};

/** Whether this host can apply presets at all, and why not. */
export async function probeFingerprintSupport(): Promise<HostFingerprintReport> {
  if (process.platform !== 'linux') return { supported: false, reason: 'Fingerprint presets need a Linux host.' };
  if (process.getuid?.() !== 0) return { supported: false, reason: 'The agent does not run as root, so it cannot set up the kernel rules the presets need.' };
  for (const [tool, args] of [['nft', ['--version']], ['ip', ['-V']], ['tc', ['-V']]] as const) {
    try {
      await exec(tool, [...args]);
    } catch {
      return { supported: false, reason: `The ${tool} command is missing on this host (Debian: ${tool === 'nft' ? 'nftables' : 'iproute2'}).` };
    }
  }
  // The namespace socket maker and the Apple rewrite are built here on first use (host-build.ts).
  if (!(await firstCompiler())) return { supported: false, reason: 'No C compiler on this host (Debian: gcc or clang): the agent builds its preset helpers with it.' };
  if (!existsSync(join(nodeHeaders(), 'node_api.h'))) return { supported: false, reason: `Node's headers (node_api.h) are missing in ${nodeHeaders()}: the agent builds its preset helpers against them.` };
  return { supported: true };
}

async function firstCompiler(): Promise<string | null> {
  for (const cc of ['cc', 'clang', 'gcc']) {
    try {
      await exec(cc, ['--version']);
      return cc;
    } catch { /* the next one */ }
  }
  return null;
}

export class FingerprintHost {
  private readonly slots = new Map<string, Slot>();
  private readonly nsPrefix: string;
  private readonly devPrefix: string;
  /** Uplinks whose forwarding the agent turned on, by sysctl file: the value before (restored on close). */
  private readonly uplinks = new Map<string, { device: string; family: 4 | 6; was: string }>();
  private rendering: Promise<void> = Promise.resolve();
  private closed = false;
  /** The agent's own (the host's) ephemeral ports, read once: native's, which the preset slices stay out of. */
  private hostPorts: Promise<PortRange> | null = null;

  constructor(private readonly options: FingerprintHostOptions) {
    this.nsPrefix = options.namespacePrefix ?? 'cellport-fp';
    this.devPrefix = options.devicePrefix ?? 'cpfp';
  }

  /**
   * Names of one agent's kernel objects, from its data folder: two agents on one machine (the demo and a test, say)
   * never touch each other's namespaces or table.
   */
  static namesFor(dataDir: string): Pick<FingerprintHostOptions, 'namespacePrefix' | 'devicePrefix'> {
    const tag = createHash('sha256').update(dataDir).digest('hex').slice(0, 4);
    return { namespacePrefix: `cellport-fp-${tag}`, devicePrefix: `cp${tag}` };
  }

  /** Removes what a previous agent that was killed left (namespaces by prefix, the table). */
  async cleanUp(): Promise<void> {
    const list = JSON.parse((await run('ip', ['-j', 'netns', 'list'])) || '[]') as Array<{ name: string }>;
    for (const { name } of list) if (name.startsWith(`${this.nsPrefix}-`)) await run('ip', ['netns', 'del', name]).catch(() => undefined);
    await run('nft', ['delete', 'table', 'inet', this.devPrefix]).catch(() => undefined);
  }

  /** One modem's view: its presets' connections, with `hops` after the host (a HiLink's NAT) compensated. */
  forModem(imei: string, hops: number): FingerprintEgress {
    return {
      prepare: (preset, egress) => { void this.ensure(imei, preset, egress, hops).catch(() => undefined); },
      connect: (preset, egress, address, port, timeoutMs, onread) => this.connect(imei, preset, egress, hops, address, port, timeoutMs, onread),
      datagramTtl: (preset) => FINGERPRINT_PRESETS[preset].ttl + hops,
      problem: (preset) => this.problemOf(this.slots.get(`${imei}/${preset}`) ?? null),
    };
  }

  private problemOf(slot: Slot | null): string | null {
    return slot?.problem ?? null;
  }

  /** Failing presets per modem, for the heartbeat (the host agent maps them to its ports). */
  problems(): Map<string, string> {
    const out = new Map<string, string>();
    for (const [key, slot] of this.slots) {
      const problem = this.problemOf(slot);
      if (problem) out.set(key, problem);
    }
    return out;
  }

  private async connect(imei: string, preset: Preset, egress: string, hops: number, address: string, port: number, timeoutMs: number,
    onread: OnReadOpts | undefined): Promise<Socket> {
    const slot = await this.ensure(imei, preset, egress, hops);
    const problem = this.problemOf(slot);
    if (problem) throw new FingerprintUnavailable(problem);
    // A simulated modem reaches this machine's loopback: from its namespace, through the veth to the host's end,
    // which the host's rules send on to 127.0.0.1 (its demo site, the echo).
    const target = slot.loopback && isLoopback(address) ? slot.hostAddress : address;
    return slot.dialer!.connect(target, port, timeoutMs, onread);
  }

  private async ensure(imei: string, preset: Preset, egress: string, hops: number): Promise<Slot> {
    if (this.closed) throw new FingerprintUnavailable('The agent is stopping.');
    const key = `${imei}/${preset}`;
    let slot = this.slots.get(key);
    if (slot === undefined) {
      const n = this.slots.size;
      const base = `100.127.${n >> 6}.${(n & 63) << 2}`.split('.').map(Number);
      const at = (k: number) => `${base[0]}.${base[1]}.${base[2]}.${base[3]! + k}`;
      const loopback = isLoopback(egress);
      slot = {
        // Forwarded by the host: one hop more than the hops after it; a simulated modem's traffic is delivered here.
        imei, preset, egress, slot: n, loopback, ttlAtVeth: FINGERPRINT_PRESETS[preset].ttl + hops + (loopback ? 0 : 1),
        namespace: `${this.nsPrefix}-${n}`, device: `${this.devPrefix}${n}`, hostAddress: at(1), nsAddress: at(2),
        hostAddress6: `fd63:7066:${n.toString(16)}::1`, nsAddress6: `fd63:7066:${n.toString(16)}::2`,
        ports: null, table: 'main', dialer: null, ready: null, problem: null,
      };
      this.slots.set(key, slot);
    }
    if (slot.egress !== egress && slot.ready) {
      // A new egress address (a reconnect): the SNAT and the routing follow before the next connection.
      slot.egress = egress;
      slot.ready = slot.ready.then(() => this.route(slot!)).then(() => this.render());
    }
    if (slot.ready === null) {
      const s = slot;
      s.problem = null;
      s.ready = this.build(s).catch((err: unknown) => {
        s.problem = `The ${preset} preset could not be set up on this host: ${(err as Error).message}`.slice(0, 300);
        this.options.log.error({ imei, preset, err: String(err) }, 'Fingerprint preset could not be set up; its ports refuse new connections');
        s.ready = null;
      });
    }
    await slot.ready;
    return slot;
  }

  private cleaned: Promise<void> | null = null;

  private async build(s: Slot): Promise<void> {
    // What makes the namespace's sockets, before anything is made (a host that cannot build it leaves nothing behind).
    const sockets = await namespaceSockets(this.options.dataDir);
    // What an earlier run of this agent left (it was killed) goes before the first namespace is made.
    await (this.cleaned ??= this.cleanUp().catch(() => undefined));
    // A rebuild (the last one failed half-way): what it made goes (its stashed sockets with the dialer), and starts anew.
    s.dialer?.close();
    s.dialer = null;
    // Apple's rewrite program, before anything is made too: a host without clang or libbpf-dev says so at once.
    const appleProgram = isApple(s.preset) ? await buildAppleRewrite(this.options.dataDir) : null;
    const p = FINGERPRINT_PRESETS[s.preset];
    // Its own source ports on the egress, apart from native's and the other presets' (egress-port-slices.ts).
    this.hostPorts ??= readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').then(parsePortRange);
    s.ports = presetPortSlice(s.preset, await this.hostPorts);
    if (s.ports === null) this.options.log.warn({ preset: s.preset }, 'Fingerprint: the host\'s ephemeral port range leaves no room for the preset\'s own source ports; a site may refuse some of its SYNs once');
    await run('ip', ['netns', 'del', s.namespace]).catch(() => undefined);
    await run('ip', ['link', 'del', s.device]).catch(() => undefined);
    await run('ip', ['netns', 'add', s.namespace]);
    await run('ip', ['-batch', '-'], [
      `link add ${s.device} type veth peer name eth0 netns ${s.namespace}`,
      `addr add ${s.hostAddress}/30 dev ${s.device}`,
    ].join('\n') + '\n');
    // IPv6 on the host's end (a host may have it off by default); no duplicate address detection on a private veth,
    // so the address is usable at once.
    await writeFile(`/proc/sys/net/ipv6/conf/${s.device}/disable_ipv6`, '0').catch(() => undefined);
    await run('ip', ['-batch', '-'], [
      `addr add ${s.hostAddress6}/64 dev ${s.device} nodad`,
      `link set ${s.device} up`,
    ].join('\n') + '\n');
    const ipv6 = synShape(s.preset, 6);
    await run('ip', ['-n', s.namespace, '-batch', '-'], [
      'link set lo up',
      `addr add ${s.nsAddress}/30 dev eth0`,
      'link set eth0 up',
      // The window metric clamps the window the kernel plans for, which is what sets the SYN's window scale.
      `route add default via ${s.hostAddress} window ${2 ** (15 + p.windowScale)}`,
      // The veth's own subnet too: a simulated modem's connections go to the host's end, by that route.
      `route replace ${s.hostAddress.replace(/\.\d+$/, `.${Number(s.hostAddress.split('.')[3]) - 1}`)}/30 dev eth0 src ${s.nsAddress} window ${2 ** (15 + p.windowScale)}`,
      `addr add ${s.nsAddress6}/64 dev eth0 nodad`,
    ].join('\n') + '\n');
    // IPv6 the same way; `initrwnd` keeps the SYN's window at the preset's multiple of the MSS where p0f knows the
    // preset by it (synShape).
    await run('ip', ['-n', s.namespace, '-6', 'route', 'add', 'default', 'via', s.hostAddress6, 'dev', 'eth0', 'window', String(2 ** (15 + p.windowScale)),
      ...(ipv6.initialSegments !== null ? ['initrwnd', String(ipv6.initialSegments)] : [])]);
    // Inside: the TTL and hop limit (one more for the host's forwarding hop), timestamps (both families), room for the
    // scale's window, and no IPv6 flow label: p0f counts a flow label as a quirk ("flow") that none of the presets'
    // signatures has, so a labelled SYN would not be recognised.
    await run('ip', ['netns', 'exec', s.namespace, 'sysctl', '-qw',
      `net.ipv4.ip_default_ttl=${s.ttlAtVeth}`, `net.ipv4.tcp_timestamps=${p.timestamps ? 1 : 0}`,
      'net.ipv4.tcp_rmem=4096 131072 33554432', 'net.ipv4.tcp_ecn=0',
      ...(s.ports ? [`net.ipv4.ip_local_port_range=${s.ports.first} ${s.ports.last}`] : []),
      `net.ipv6.conf.all.hop_limit=${s.ttlAtVeth}`, `net.ipv6.conf.eth0.hop_limit=${s.ttlAtVeth}`, 'net.ipv6.auto_flowlabels=0']);
    // On the host: only this veth forwards (not the whole host), without reverse-path checks on its private address.
    await writeFile(`/proc/sys/net/ipv4/conf/${s.device}/forwarding`, '1');
    await writeFile(`/proc/sys/net/ipv4/conf/${s.device}/rp_filter`, '0');
    // The option layout, rewritten inside the namespace on its way out (preset-ruleset.ts).
    const inside = renderNamespaceRuleset(s.preset);
    if (inside) await run('ip', ['netns', 'exec', s.namespace, 'nft', '-f', '-'], `${inside}\n`);
    if (appleProgram !== null) {
      // In the kernel, on the veth's way out (apple-syn-rewrite.bpf.c): no process woken per SYN. Without it attached
      // no preset connection starts (this build fails: the port refuses with the reason); detached later, the
      // namespace's SYNs leave in Linux's layout, which the host's check chain drops.
      await run('ip', ['netns', 'exec', s.namespace, 'tc', 'qdisc', 'add', 'dev', 'eth0', 'clsact']);
      await run('ip', ['netns', 'exec', s.namespace, 'tc', 'filter', 'add', 'dev', 'eth0', 'egress', 'bpf', 'direct-action', 'obj', appleProgram, 'sec', 'tc']);
    }
    await this.route(s);
    await this.render();
    s.dialer = new NamespaceDialer(sockets, s.namespace);
  }

  /** The veth's traffic follows the routing table of the modem's egress address; the modem's uplink forwards replies. */
  private async route(s: Slot): Promise<void> {
    if (s.loopback) {
      // Delivered on this host, DNATed to 127.0.0.1: the veth may carry loopback destinations.
      await writeFile(`/proc/sys/net/ipv4/conf/${s.device}/route_localnet`, '1');
      return;
    }
    const family = familyOf(s.egress);
    await this.dropRules(s);
    const rules = JSON.parse((await run('ip', ['-j', `-${family}`, 'rule', 'show'])) || '[]') as Array<{ priority: number; src?: string; table?: string }>;
    s.table = rules.find((r) => r.src === s.egress && r.table)?.table ?? 'main';
    if (s.table !== 'main') await run('ip', [`-${family}`, 'rule', 'add', 'iif', s.device, 'lookup', s.table, 'priority', String(900 + (s.slot % 90))]);
    const addrs = JSON.parse((await run('ip', ['-j', `-${family}`, 'addr', 'show'])) || '[]') as Array<{ ifname: string; addr_info: Array<{ local: string }> }>;
    const uplink = addrs.find((a) => a.addr_info.some((i) => i.local === s.egress))?.ifname;
    if (uplink === undefined) throw new Error(`no interface holds the egress address ${s.egress}`);
    // Forwarding for the veth (its SYNs out) and the uplink (the replies in), never for the whole host. IPv6 has a
    // per-interface switch only since Linux 6.17 (force_forwarding); `all.forwarding` would turn the whole host into
    // a router that ignores its modems' router advertisements, so an older kernel fails closed instead.
    const paths = family === 4
      ? [`/proc/sys/net/ipv4/conf/${uplink}/forwarding`]
      : [`/proc/sys/net/ipv6/conf/${s.device}/force_forwarding`, `/proc/sys/net/ipv6/conf/${uplink}/force_forwarding`];
    for (const path of paths) {
      if (!existsSync(path)) throw new Error('IPv6 through a preset needs Linux 6.17 or newer (per-interface IPv6 forwarding, force_forwarding)');
      const was = (await readFile(path, 'utf8')).trim();
      if (was === '1') continue;
      await writeFile(path, '1');
      if (!path.includes(`/${s.device}/`) && !this.uplinks.has(path)) this.uplinks.set(path, { device: uplink, family, was });
    }
  }

  /** The veth's policy routing rules, both families (an egress can change family on a reconnect). */
  private async dropRules(s: Slot): Promise<void> {
    for (const family of ['-4', '-6']) {
      for (const r of JSON.parse((await run('ip', ['-j', family, 'rule', 'show']).catch(() => '[]')) || '[]') as Array<{ priority: number; iif?: string }>) {
        if (r.iif === s.device) await run('ip', [family, 'rule', 'del', 'priority', String(r.priority), 'iif', s.device]).catch(() => undefined);
      }
    }
  }

  private render(): Promise<void> {
    this.rendering = this.rendering.catch(() => undefined).then(async () => {
      const slots = [...this.slots.values()].filter((s) => s.ready !== null || s.dialer !== null);
      const ruleset = renderRuleset(this.devPrefix, this.devPrefix, slots, [...this.uplinks.values()]);
      await run('nft', ['-f', '-'], `table inet ${this.devPrefix}\ndelete table inet ${this.devPrefix}\n${ruleset}\n`);
    });
    return this.rendering;
  }

  /** The namespace of a modem's preset (tests break its rewrite to see the host's check drop the SYN). */
  namespaceOf(imei: string, preset: Preset): string | undefined {
    return this.slots.get(`${imei}/${preset}`)?.namespace;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const s of this.slots.values()) {
      s.dialer?.close();
      await run('ip', ['netns', 'del', s.namespace]).catch(() => undefined);
      await this.dropRules(s);
    }
    for (const [path, { was }] of this.uplinks) await writeFile(path, was).catch(() => undefined);
    await run('nft', ['delete', 'table', 'inet', this.devPrefix]).catch(() => undefined);
  }
}

/** Debian's directory of the architecture's kernel headers (asm/types.h), which clang -target bpf does not search. */
const MULTIARCH: Record<string, string> = { x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu', arm: 'arm-linux-gnueabihf', ia32: 'i386-linux-gnu' };

const APPLE_REWRITE = ['apple-syn-rewrite.bpf.c', 'apple-syn-rewrite', '.bpf.o'] as const;

/** Where the Apple rewrite's object is built (a test spoils it to see a program that cannot be attached fail closed). */
export const appleRewriteObject = (dataDir: string): string => builtPath(dataDir, ...APPLE_REWRITE);

/** Builds the Apple rewrite's tc-eBPF object with clang and Debian's libbpf-dev headers, once per source version. */
export function buildAppleRewrite(dataDir: string): Promise<string> {
  const include = MULTIARCH[process.arch];
  return buildOnHost(dataDir, ...APPLE_REWRITE,
    ['-c', '-g', '-target', 'bpf', ...(include ? [`-I/usr/include/${include}`] : [])], 'clang and libbpf-dev', ['clang']);
}
