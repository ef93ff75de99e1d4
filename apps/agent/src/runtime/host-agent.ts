import type { Socket } from 'socket.io-client';
import type { Duplex } from 'node:stream';
import { gatewayTicketReplySchema, type GatewayTicketRequest } from '@cellport/shared/schemas/gateway-protocol';
import {
  HOST_PROTOCOL, agentErrorSchema, desiredStateSchema, rotateCommandSchema, trafficAckSchema,
  type DesiredModem, type DesiredState, type Heartbeat, type RotateReply,
} from '@cellport/shared/schemas/host-protocol';
import type { HostFingerprintReport } from '@cellport/shared/schemas/host-protocol';
import type { FingerprintEgress } from '../fingerprint/fingerprint-egress.js';
import type { KernelRelay } from '../relay/kernel-relay.js';
import { fingerprintReport, hopsAfterHost } from '../fingerprint/fingerprint-report.js';
import { GatewayLink } from '../link/gateway-link.js';
import { ModemProxy } from '../proxy/modem-proxy.js';
import { PortListeners, type WantedPortListener } from '../proxy/port-listeners.js';
import { AuthGuard } from '../proxy/auth-guard.js';
import { ProxyCounters } from '../proxy/proxy-counters.js';
import { TrafficMeter, type PortTotals } from '../proxy/traffic-meter.js';
import type { Logger } from '../proxy/types.js';
import type { TargetPolicy } from '../proxy/target-policy.js';
import type { ModemDriver } from './drivers/modem-driver.js';
import { QualityTester, type QualitySettings } from './quality/quality-tester.js';
import { connectToServer } from './server-link.js';
import { StateStore } from './state-store.js';
import { TrafficJournal } from './traffic-journal.js';

export interface HostAgentOptions {
  serverUrl: string;
  key: string;
  /** This host's own directory: its last state and unsent traffic. */
  dataDir: string;
  listenHost: string;
  policy: TargetPolicy;
  driverFor(kind: DesiredModem['driver']): ModemDriver;
  log: Logger;
  agentVersion: string;
  reportSeconds: number;
  /** How long a traffic batch waits for the server's acknowledgement before it is sent again later. */
  ackTimeoutMs?: number;
  /** The host's configured modems as read from the devices (AGENT_MODEMS), sent with every heartbeat. */
  inventory?(): Heartbeat['inventory'];
  /** The host's label in the metrics (runAgent: the id of its data folder, never the key). */
  name?: string;
  /** Told of each rotation (the metrics' histogram and outcomes). */
  onRotation?(outcome: RotationOutcome, seconds: number | null): void;
  /**
   * The OS fingerprint presets (issue 30): what this host can do (sent with every heartbeat) and, when it can, each
   * modem's way to apply them. Absent: the host cannot, and ports with a preset refuse new connections.
   */
  fingerprint?: { support: HostFingerprintReport; forModem: ((imei: string, hops: number) => FingerprintEgress) | null };
  /** Relays established tunnels in the kernel (AGENT_KERNEL_RELAY; ModemProxy's kernelRelay); absent or null: in JavaScript. */
  kernelRelay?: KernelRelay | null;
  /** Each modem's bounded speed and UDP test (README, "Speed tests"); absent: none (AGENT_SPEEDTEST_INTERVAL_MINUTES=0). */
  quality?: QualitySettings;
}

/** How a rotate command ended: done, failed, the same IP each time (ip_collision), or not tried (refused). */
export type RotationOutcome = 'ok' | 'failed' | 'ip_collision' | 'refused';

/** One modem as served: its proxy (null while its ports cannot be opened) and what the agent knows of it. */
interface ServedModem {
  desired: DesiredModem;
  extIp: string;
  /** The driver has taken the modem on (adopt), so extIp is the driver's. */
  adopted: boolean;
  proxy: ModemProxy | null;
  /** How its ports' fingerprint presets are applied (none: this host cannot). */
  fingerprint?: FingerprintEgress;
  /** Whether its proxy listens itself (a direct host) or takes connections from the gateway link. */
  listening: boolean;
  /** Whether the modem's own httpPort/socksPort serve (decision 045: only for its ports without listeners of their own). */
  modemNumbers: boolean;
  problem: string | undefined;
  rotating: boolean;
}

/**
 * Serves one host: applies the desired state the server sends (kept on disk, so the ports keep working through an
 * outage and a restart), runs rotations, sends heartbeats, and reports per-port traffic in batches that are journaled
 * before they are sent.
 */
export class HostAgent {
  private readonly store: StateStore;
  private readonly journal: TrafficJournal;
  private readonly meter = new TrafficMeter();
  /** Connections and refusals of every modem's proxy, for the metrics. */
  readonly counters = new ProxyCounters();
  /** Wrong proxy passwords of every modem's customers, counted and blocked together (a proxy replaced keeps them). */
  private readonly authGuard: AuthGuard;
  /** When the server last sent a desired state (Date.now()); null until it has in this process. */
  private stateReceivedAt: number | null = null;
  private readonly modems = new Map<string, ServedModem>();
  private state: DesiredState | null = null;
  /**
   * The state whose application ended (the heartbeat reports its version and its ports' digests): `state` is the
   * one being applied from the moment it arrives.
   */
  private served: DesiredState | null = null;
  private socket: Socket | null = null;
  private applying: Promise<void> = Promise.resolve();
  private flushing: Promise<void> | null = null;
  private readonly timers: NodeJS.Timeout[] = [];
  /** Ends the server link's own retry timers on stop. */
  private readonly stopping = new AbortController();
  private recordScheduled = false;
  private readonly started = Date.now();
  /** The link to the host's gateway, while its state names one (docs/decisions/031-gateway.md). */
  private link: GatewayLink | null = null;
  /** The ports' own listeners (decision 045), on a direct host; a host behind a gateway routes by their numbers. */
  private portListeners: PortListeners | null = null;
  /** The modems' speed tests, when configured; their last results ride on the heartbeat. */
  readonly quality: QualityTester | null;

  constructor(private readonly options: HostAgentOptions) {
    this.quality = options.quality
      ? new QualityTester(() => this.testableModems(), options.quality, options.log, Date.now, () => this.sendHeartbeat())
      : null;
    this.authGuard = new AuthGuard(this.counters, options.log);
    this.store = new StateStore(options.dataDir);
    this.journal = new TrafficJournal(options.dataDir);
    // Closed connections' bytes go to disk within the same turn of the event loop (coalesced), so a crash loses
    // only what connections still open moved.
    this.meter.onCounted = () => {
      if (this.recordScheduled) return;
      this.recordScheduled = true;
      setImmediate(() => {
        this.recordScheduled = false;
        try {
          this.journal.record(this.meter.drainCounted());
        } catch (err) {
          this.options.log.error({ err }, 'could not record traffic on disk');
        }
      });
    };
  }

  async start(): Promise<void> {
    const saved = await this.store.load();
    if (saved) {
      this.options.log.info({ modems: saved.modems.length, version: saved.version }, 'serving the last state kept on disk');
      await this.apply(saved, false);
    }
    const socket = connectToServer(this.options.serverUrl, this.options.key, this.options.log, this.stopping.signal, () => this.state !== null);
    this.socket = socket;
    socket.on('connect', () => { this.sendHeartbeat(); void this.flushTraffic(); });
    socket.on('state', (raw: unknown) => {
      const parsed = desiredStateSchema.safeParse(raw);
      if (!parsed.success) return this.options.log.error({ issues: parsed.error.issues.slice(0, 3) }, 'the server sent a state this agent cannot read');
      this.stateReceivedAt = Date.now();
      void this.apply(parsed.data, true);
    });
    socket.on('rotate', (raw: unknown, ack: (reply: RotateReply) => void) => {
      if (typeof ack !== 'function') return;
      const parsed = rotateCommandSchema.safeParse(raw);
      if (!parsed.success) return ack({ ok: false, error: 'malformed rotate command' });
      void this.rotate(parsed.data.commandId, parsed.data.imei).then(ack);
    });
    this.timers.push(setInterval(() => this.sendHeartbeat(), HOST_PROTOCOL.heartbeatSeconds * 1000).unref());
    this.quality?.start();
    this.timers.push(setInterval(() => void this.collectTraffic().then(() => this.flushTraffic()), this.options.reportSeconds * 1000).unref());
  }

  /**
   * Stops serving: collects what was counted (kept on disk for the next start), closes ports and the connection.
   * With `drainMs` (SIGTERM), the ports first stop taking connections and the open ones get that long to finish; a
   * gateway link stays up meanwhile, since it carries them.
   */
  async stop(drainMs = 0): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    await this.quality?.stop();
    this.stopping.abort();
    this.socket?.close();
    await this.applying;
    // The ports' own listeners stop taking connections first (closing one leaves its open connections to the modem
    // proxy that took them, which the drain waits for); else a port with numbers of its own kept accepting while
    // its modem drained.
    await this.portListeners?.close();
    if (drainMs > 0) await Promise.all([...this.modems.values()].map((m) => m.proxy?.drain(drainMs)));
    this.link?.stop();
    this.link = null;
    await Promise.all([...this.modems.values()].map((m) => m.proxy?.close()));
    await this.collectTraffic();
    this.modems.clear();
  }

  /**
   * The served modems, for tests and the heartbeat. A modem its driver's health checks find offline is reported
   * offline with the reason (its ports stay open: it may come back at the next check); a degraded one stays online.
   */
  snapshot(): Heartbeat['modems'] {
    return [...this.modems.values()].map((m) => {
      const driver = m.proxy ? this.driverOrNull(m.desired.driver) : null;
      const health = driver?.health?.(m.desired.imei);
      const measured = m.rotating ? undefined : driver?.currentIp?.(m.desired.imei);
      if (measured) m.extIp = measured;
      const problem = m.problem ?? (health && health.state !== 'online' ? health.reason : undefined);
      return {
        imei: m.desired.imei,
        state: m.proxy === null ? 'offline' : m.rotating ? 'rotating' : health?.state === 'offline' ? 'offline' : 'online',
        extIp: m.extIp,
        connections: m.proxy?.connectionCount ?? 0,
        ...(problem ? { problem: problem.slice(0, 300) } : {}),
        ...(health ? { health } : {}),
        ...(this.quality?.result(m.desired.imei) ? { quality: this.quality.result(m.desired.imei) } : {}),
      };
    });
  }

  /** Modems a speed test may run through: serving, not rotating, not offline by their health checks. */
  private testableModems() {
    return [...this.modems.values()].flatMap((m) => {
      const driver = m.proxy ? this.driverOrNull(m.desired.driver) : null;
      if (!m.proxy || m.rotating || driver?.health?.(m.desired.imei)?.state === 'offline') return [];
      return [{ imei: m.desired.imei, egress: m.proxy.egress, connections: m.proxy.connectionCount, carried: m.proxy.carried() }];
    });
  }

  private driverOrNull(kind: DesiredModem['driver']): ModemDriver | null {
    try {
      return this.options.driverFor(kind);
    } catch {
      return null;
    }
  }

  // Read by the metrics when scraped (runtime/agent-metrics.ts).

  get name(): string { return this.options.name ?? 'host'; }

  get serverConnected(): boolean { return this.socket?.connected ?? false; }

  /** The desired state served (from the server or, until it answers, from disk) and when the server last sent one. */
  get desiredState(): { version: string; receivedAt: number | null } | null {
    return this.state ? { version: this.state.version, receivedAt: this.stateReceivedAt } : null;
  }

  /** Whether the link to the host's gateway is up; null when the state names no gateway. */
  get gatewayLinkUp(): boolean | null { return this.link ? this.link.state.state === 'up' : null; }

  /** Open client connections by port and kind (ModemProxy.countOpen), added into `into`. */
  countOpen(into: Map<string, number>): void {
    for (const m of this.modems.values()) m.proxy?.countOpen(into);
  }

  /**
   * What the served modem carried for customers through its current proxy (ModemProxy.carried): the health checks
   * take its growth as proof that the modem works while the echo (the server, by default) does not answer.
   */
  carried(imei: string): number { return this.modems.get(imei)?.proxy?.carried() ?? 0; }

  /** Bytes per port since start, with what open connections moved so far. */
  trafficTotals(): Map<string, PortTotals> { return this.meter.totalsNow(); }

  /** Sends a heartbeat now (a modem's health changed), besides the one every HOST_PROTOCOL.heartbeatSeconds. */
  heartbeatNow(): void { this.sendHeartbeat(); }

  private apply(state: DesiredState, persist: boolean): Promise<void> {
    // One application at a time, in the order states arrived.
    this.applying = this.applying.then(async () => {
      if (this.state?.version === state.version) return;
      if (persist) await this.store.save(state);
      this.state = state;
      const wanted = new Set(state.modems.map((m) => m.imei));
      for (const [imei, served] of this.modems) {
        if (!wanted.has(imei)) {
          this.modems.delete(imei);
          await served.proxy?.close();
        }
      }
      // Modems whose ports change let go of them before any modem opens its new ones: a replacement that keeps a
      // customer's address on a server before decision 045 swaps two modems' ports (decision 036), and the new modem
      // must find the old one's free.
      const listening = !state.gateway;
      for (const desired of state.modems) {
        const served = this.modems.get(desired.imei);
        if (!served?.proxy) continue;
        const samePorts = served.desired.httpPort === desired.httpPort && served.desired.socksPort === desired.socksPort;
        if (samePorts && served.listening === listening) {
          // Decision 045: a modem whose last port without its own listener left stops listening on its numbers first.
          if (!modemListenerWanted(state, desired)) {
            await served.proxy.setListening(false);
            served.modemNumbers = false;
          }
          continue;
        }
        const proxy = served.proxy;
        served.proxy = null;
        await proxy.close();
      }
      // Ports' own listeners that go away or change their numbers close before any listener opens.
      await this.applyPortListeners(state, false);
      for (const desired of state.modems) await this.applyModem(desired);
      await this.applyPortListeners(state, true);
      this.meter.retainTotals(new Set(state.modems.flatMap((m) => m.ports.map((p) => p.id))));
      this.applyGateway(state);
      this.options.log.info({ version: state.version, modems: state.modems.length, ports: state.modems.reduce((n, m) => n + m.ports.length, 0) },
        'serving the desired state');
      this.served = state;
      this.sendHeartbeat();
    }).catch((err: unknown) => {
      // Reported as served all the same (as before), so the server does not send it again and again.
      this.served = this.state;
      this.options.log.error({ err }, 'could not apply the desired state');
    });
    return this.applying;
  }

  /**
   * The ports' own listeners (decision 045) for this state, each pointed at the proxy of the modem that lists the
   * port now. `open: false` only lets go of listeners that are no longer wanted (before modems open theirs).
   */
  private async applyPortListeners(state: DesiredState, open: boolean): Promise<void> {
    const listening = !state.gateway;
    if (this.portListeners && (this.portListeners.listening !== listening)) {
      await this.portListeners.close();
      this.portListeners = null;
    }
    this.portListeners ??= new PortListeners(this.options.listenHost, this.options.log, listening);
    const wanted: WantedPortListener[] = [];
    for (const m of state.modems) {
      const proxy = open ? this.modems.get(m.imei)?.proxy ?? null : null;
      for (const p of m.ports) {
        if (p.listen) wanted.push({ portId: p.id, httpPort: p.listen.httpPort, socksPort: p.listen.socksPort, target: proxy });
      }
    }
    if (open) return this.portListeners.apply(wanted);
    // Before the modems: keep (with their targets) only listeners whose port keeps its numbers.
    await this.portListeners.release(wanted);
  }

  private async applyModem(desired: DesiredModem): Promise<void> {
    const served = this.modems.get(desired.imei);
    const listening = !this.state?.gateway;
    const modemNumbers = this.state ? modemListenerWanted(this.state, desired) : true;
    const modemListener = listening && modemNumbers;
    const samePorts = served && served.desired.httpPort === desired.httpPort && served.desired.socksPort === desired.socksPort;
    if (served && samePorts && served.listening === listening && served.proxy) {
      served.desired = desired;
      served.proxy.setPorts(desired.ports);
      if (served.modemNumbers !== modemNumbers) {
        try {
          await served.proxy.setListening(modemListener);
          served.modemNumbers = modemNumbers;
          served.problem = undefined;
        } catch (err) {
          served.problem = err instanceof Error ? err.message : String(err);
          this.options.log.error({ imei: desired.imei }, `modem ${desired.imei}: ${served.problem}`);
        }
      }
      return;
    }
    await served?.proxy?.close();
    const next: ServedModem = {
      desired, extIp: served?.extIp ?? desired.extIp, adopted: served?.adopted ?? false, proxy: null, listening, modemNumbers,
      problem: undefined, rotating: false,
    };
    this.modems.set(desired.imei, next);
    try {
      // A modem this host cannot drive (not in its modems file, not answering) is offline with the reason; the others serve.
      const driver = this.options.driverFor(desired.driver);
      const extIp = next.adopted ? next.extIp : driver.adopt(desired.extIp, desired.imei);
      next.extIp = extIp;
      next.adopted = true;
      const fingerprint = this.options.fingerprint?.forModem?.(desired.imei, hopsAfterHost(desired.driver));
      if (fingerprint) next.fingerprint = fingerprint;
      const proxy = new ModemProxy({
        imei: desired.imei,
        listenHost: this.options.listenHost,
        httpPort: desired.httpPort,
        socksPort: desired.socksPort,
        egress: driver.egress({ imei: desired.imei, extIp }),
        policy: this.options.policy,
        meter: this.meter,
        log: this.options.log,
        listen: modemListener,
        counters: this.counters,
        authGuard: this.authGuard,
        kernelRelay: this.options.kernelRelay ?? null,
        ...(fingerprint ? { fingerprint } : {}),
      });
      await proxy.start();
      proxy.setPorts(desired.ports);
      next.proxy = proxy;
    } catch (err) {
      // One clear line; the modem stays offline (the console shows why) and everything else keeps serving.
      next.problem = err instanceof Error ? err.message : String(err);
      this.options.log.error({ imei: desired.imei }, `modem ${desired.imei} is offline: ${next.problem}`);
    }
  }

  /**
   * Behind a gateway: one link to it, for the state's link URL (a new URL replaces the link). The gateway learns the
   * host's ports from the tickets, so a state that changed them renews the ticket on the open link.
   */
  private applyGateway(state: DesiredState): void {
    const gateway = state.gateway;
    if (this.link && this.link.url !== gateway?.linkUrl) {
      this.link.stop();
      this.link = null;
    }
    if (!gateway) return;
    if (this.link) return this.link.renewNow();
    this.link = new GatewayLink({
      linkUrl: gateway.linkUrl, log: this.options.log,
      ticket: (linkKey) => this.gatewayTicket(linkKey),
      route: (port) => this.routeFromGateway(port),
      onState: () => this.sendHeartbeat(),
    });
    this.link.start();
  }

  /** A ticket for the gateway link, bound to the link's key, from the server over the host's connection. */
  private async gatewayTicket(linkKey: string): Promise<string> {
    const socket = this.socket;
    if (!socket?.connected) throw new Error('not connected to the server');
    const request: GatewayTicketRequest = { linkKey };
    const reply = gatewayTicketReplySchema.safeParse(await socket.timeout(10_000).emitWithAck('gateway-ticket', request));
    if (!reply.success) throw new Error('the server answered out of contract');
    if ('error' in reply.data) throw new Error(reply.data.error);
    return reply.data.ticket;
  }

  /** Who serves a customer connection that reached this port at the gateway: the port or modem with that number, if serving. */
  private routeFromGateway(port: number): ((socket: Duplex) => void) | null {
    const own = this.portListeners?.route(port);
    if (own) return own;
    for (const m of this.modems.values()) {
      const proxy = m.proxy;
      if (!proxy || m.listening || !m.modemNumbers) continue;
      if (m.desired.httpPort === port) return (socket) => proxy.acceptStream(socket, 'http');
      if (m.desired.socksPort === port) return (socket) => proxy.acceptStream(socket, 'socks');
    }
    return null;
  }

  /** Tries again to serve the modems that are offline (a modem that answers now, a port that is free now). */
  retryOffline(): Promise<void> {
    this.applying = this.applying.then(async () => {
      const offline = [...this.modems.values()].filter((m) => !m.proxy);
      for (const m of offline) await this.applyModem(m.desired);
      const portsUnserved = (this.portListeners?.problems.size ?? 0) > 0;
      if (this.state && (offline.length || portsUnserved)) await this.applyPortListeners(this.state, true);
      if (offline.length) this.sendHeartbeat();
    }).catch((err: unknown) => this.options.log.error({ err }, 'could not serve the offline modems again'));
    return this.applying;
  }

  private async rotate(commandId: string, imei: string): Promise<RotateReply> {
    let started: number | null = null;
    const reply = await this.runRotation(commandId, imei, () => { started = performance.now(); });
    const seconds = started === null ? null : (performance.now() - started) / 1000;
    const outcome: RotationOutcome = reply.ok ? 'ok' : 'code' in reply && reply.code === 'ip_collision' ? 'ip_collision'
      : seconds === null ? 'refused' : 'failed';
    this.options.onRotation?.(outcome, seconds);
    return reply;
  }

  /** The rotation itself; `driving` is called when the driver starts it (not for one refused: offline, busy). */
  private async runRotation(commandId: string, imei: string, driving: () => void): Promise<RotateReply> {
    await this.applying;
    const served = this.modems.get(imei);
    if (!served?.proxy) return { ok: false, error: served ? `modem is offline: ${served.problem ?? 'not serving'}` : 'this host has no such modem' };
    if (served.rotating) return { ok: false, error: 'the modem is already rotating' };
    const driver = this.options.driverFor(served.desired.driver);
    const proxy = served.proxy;
    served.rotating = true;
    // New connections wait for the new IP; the ones on the old IP are closed once it changes.
    proxy.beginRotation();
    driving();
    try {
      const { extIp } = await driver.rotate({ imei, extIp: served.extIp }, (status) => {
        this.socket?.emit('rotation-status', { commandId, imei, status });
      });
      served.extIp = extIp;
      proxy.setEgress(driver.egress({ imei, extIp }), { newPublicIp: true });
      this.options.log.info({ imei, extIp }, 'rotated');
      return { ok: true, extIp };
    } catch (err) {
      const code = (err as { replyCode?: unknown }).replyCode;
      return { ok: false, error: err instanceof Error ? err.message : String(err), ...(code === 'ip_collision' ? { code } : {}) };
    } finally {
      served.rotating = false;
      proxy.endRotation();
    }
  }

  private sendHeartbeat(): void {
    if (!this.socket?.connected) return;
    const heartbeat: Heartbeat = {
      agentVersion: this.options.agentVersion,
      uptimeSeconds: Math.round((Date.now() - this.started) / 1000),
      stateVersion: this.served?.version ?? null,
      // Each port's settings as served (issue 30): a fingerprint check waits for its own port, not a neighbour's.
      ports: (this.served?.modems ?? []).flatMap((m) => m.ports.flatMap((p): Array<[string, string]> => (p.digest ? [[p.id, p.digest]] : []))),
      modems: this.snapshot(),
      ...(this.options.inventory ? { inventory: this.options.inventory() } : {}),
      ...(this.link ? { gatewayLink: this.link.state } : {}),
      fingerprint: fingerprintReport(
        this.options.fingerprint?.support ?? { supported: false, reason: 'This agent was started without fingerprint presets.' },
        [...this.modems.values()].map((m) => ({ ports: m.desired.ports, egress: m.fingerprint })),
      ),
    };
    this.socket.emit('heartbeat', heartbeat);
  }

  private async collectTraffic(): Promise<void> {
    await this.journal.seal(this.meter.collect(Date.now())).catch((err: unknown) => this.options.log.error({ err }, 'could not journal traffic'));
  }

  /** Sends the journaled batches in order; stops at the first that is not acknowledged (the next flush resends it). */
  flushTraffic(): Promise<void> {
    this.flushing ??= (async () => {
      try {
        for (const { file, report } of await this.journal.pending()) {
          const socket = this.socket;
          if (!socket?.connected) return;
          const answer: unknown = await socket.timeout(this.options.ackTimeoutMs ?? 10_000).emitWithAck('traffic', report).catch(() => null);
          const refused = agentErrorSchema.safeParse(answer);
          if (refused.success) {
            // The server will never accept this batch (it cannot read it): keep it from blocking the ones after it.
            this.options.log.error({ batchId: report.batchId, error: refused.data.error }, 'the server refused a traffic batch; dropped');
            await this.journal.acknowledge(file);
            continue;
          }
          const ack = trafficAckSchema.safeParse(answer);
          if (!ack.success || ack.data.batchId !== report.batchId) return;
          await this.journal.acknowledge(file);
        }
      } catch (err) {
        this.options.log.warn({ err }, 'traffic report not sent: will retry');
      } finally {
        this.flushing = null;
      }
    })();
    return this.flushing;
  }

  /** Collects what was counted so far and sends it now (tests, and a prompt report after a busy minute). */
  async reportNow(): Promise<void> {
    await this.collectTraffic();
    await this.flushTraffic();
  }
}

/**
 * Whether a modem listens on its own httpPort/socksPort (decision 045): always for a server that gives ports no
 * listeners of their own; otherwise only while some of its ports has none (shared ports sold before 045).
 */
function modemListenerWanted(state: DesiredState, modem: DesiredModem): boolean {
  return !state.portListeners || modem.ports.some((p) => !p.listen);
}
