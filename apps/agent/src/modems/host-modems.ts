import type { HostModemInfo, ModemHealth } from '@cellport/shared/schemas/host-protocol';
import { AgentConfigError } from '../config.js';
import type { Logger } from '../proxy/types.js';
import { HilinkModem } from '../runtime/drivers/hilink/hilink-modem.js';
import { echoAnswersTheHost, measurePublicIp } from '../runtime/drivers/ip-echo.js';
import { IpHistory } from '../runtime/drivers/ip-history.js';
import type { ModemBackend, ModemDetails } from '../runtime/drivers/modem-backend.js';
import type { DrivenModem, ModemDriver } from '../runtime/drivers/modem-driver.js';
import { ModemManagerModem, type MmcliOptions } from '../runtime/drivers/modemmanager/mmcli.js';
import type { SimulatedModemDriver } from '../runtime/drivers/simulated.js';
import { DEFAULT_HEALTH, ModemHealthChecker, type CheckResult, type HealthProbe, type HealthSettings, type Look, type RecoveryActions } from '../runtime/health/modem-health.js';
import { powerCycleArgv, runPowerCycle } from '../runtime/health/power-cycle.js';
import type { IpRunner } from '../runtime/routing/ip-command.js';
import { modemRouting } from '../runtime/routing/modem-route.js';
import { applyModemRouting } from '../runtime/routing/policy-routing.js';
import { describeEntry, resolveEgress, type ModemEntry, type ModemsFile } from './modems-file.js';

export interface HostModemsOptions {
  file: ModemsFile;
  /** Where each modem's IP history is kept (`<dataDir>/modems/<imei>.ip-history.jsonl`). */
  dataDir: string;
  /** IP-echo URLs, each answering the caller's address as plain text. */
  echoUrls: string[];
  /** A rotation that gives the same IP is tried this many times in all, then reported as a collision. */
  rotateAttempts: number;
  simulated: SimulatedModemDriver;
  /** `debug` (pino's): a line per health round, the marker tests wait for. */
  log: Logger & { debug?(fields: object, message: string): void };
  /** How long one echo request and all of a measurement may take. */
  echoTimeoutMs?: number;
  echoDeadlineMs?: number;
  /** How long the first look at each modem may take at start. */
  probeTimeoutMs?: number;
  /** Per-backend settings (tests shorten the waits; mmcli's PATH). */
  hilink?: { timeoutMs?: number; busyBackoffMs?: number[]; connectTimeoutMs?: number; rebootTimeoutMs?: number; pollMs?: number };
  mmcli?: MmcliOptions & { connectTimeoutMs?: number; pollMs?: number };
  interfaces?: Parameters<typeof resolveEgress>[1];
  /** Health checks (interval, timeouts, reboot and power-cycle limits); defaults: DEFAULT_HEALTH. */
  health?: Partial<HealthSettings>;
  /** The host's power-cycle command template (AGENT_POWER_CYCLE_COMMAND); an entry's own `powerCycle` wins. */
  powerCycleCommand?: string;
  powerCycleTimeoutMs?: number;
  /** The clock of the reboot and power-cycle limits (tests). */
  now?: () => number;
  /**
   * What the modem with this IMEI has carried for customers so far (HostAgent.carried): a number that grows while
   * its targets answer through it. A modem that carried traffic since the last check works, whatever the echo says.
   */
  carried?: (imei: string) => number;
  /** A modem's health changed state, or its measured public IP moved (the heartbeat goes out at once). */
  onHealthChange?: (imei: string) => void;
  /**
   * AGENT_POLICY_ROUTING: the agent keeps each modem's routing table and rule (runtime/routing) — at each look at the
   * modem and after each reconnect or reboot, which may give its interface a new address. `run`: `ip` (tests).
   */
  policyRouting?: { firstTable: number; run?: IpRunner };
}

/** One configured modem: its entry, its management backend, what it reported and its public IP. */
interface HostModem {
  entry: ModemEntry;
  index: number;
  backend: ModemBackend | null;
  details: ModemDetails | null;
  extIp: string | undefined;
  problem: string | undefined;
  rotating: boolean;
  rotations: { total: number; succeeded: number; collisions: number; lastMs?: number };
  health: ModemHealthChecker;
  /** At least one health check has run (before it, the heartbeat reports no health). */
  checked: boolean;
  /** Rotations started, of any driver: a health check that overlapped one does not take the IP it measured. */
  rotationsStarted: number;
  /** rotationsStarted when the running check began. */
  checkFrom: number;
  /** An IP a check found to have moved, for the IP history once the check is done. */
  moved: { ip: string; previous: string } | null;
  /** Why the modem's policy routing could not be set up the last time (logged once). */
  routingProblem?: string;
  /** The modem's policy routing being applied: a look and a recovery never apply it at the same time. */
  routing?: Promise<void>;
}

export class IpCollisionError extends Error {
  readonly replyCode = 'ip_collision';
}

const withTimeout = <T>(p: Promise<T>, ms: number, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms); })])
    .finally(() => clearTimeout(timer));
};

/**
 * The modems of this host's modems file, driven by their own drivers (HiLink, ModemManager, simulated). As the host
 * agent's ModemDriver it answers by IMEI: the file, not the server, says how a modem is driven. A rotation reconnects
 * the modem and measures its public IP through its egress; the same IP is tried again a bounded number of times, then
 * reported as a collision. Every modem's IPs are kept in its history.
 */
export class HostModems implements ModemDriver {
  private readonly all: HostModem[];
  private readonly history: IpHistory;
  private timer: NodeJS.Timeout | null = null;
  private healthTimer: NodeJS.Timeout | null = null;
  private readonly healthSettings: HealthSettings;
  /** The health round running (rounds never overlap), and how many have finished (the log's marker). */
  private round: Promise<Map<string, CheckResult>> | null = null;
  private rounds = 0;
  /** Why the last round's failures were not held against the modems (logged when it changes). */
  private lastDoubt: string | undefined;

  constructor(private readonly options: HostModemsOptions) {
    this.history = new IpHistory(options.dataDir);
    this.healthSettings = { ...DEFAULT_HEALTH, ...options.health };
    this.all = options.file.modems.map((entry, index) => {
      const m = {
        entry, index, backend: this.backendFor(entry), details: null, extIp: undefined, problem: undefined, rotating: false,
        rotations: { total: 0, succeeded: 0, collisions: 0 }, checked: false, rotationsStarted: 0, checkFrom: 0, moved: null,
      } as Omit<HostModem, 'health'> as HostModem;
      m.health = new ModemHealthChecker(describeEntry(entry, index), this.probeFor(m), this.recoveryFor(m), this.healthSettings,
        options.log, options.now, (verdict) => this.healthChanged(m, verdict.extIp));
      return m;
    });
  }

  /** How a health check looks at a modem: its API's connection state, and one IP-echo request through its egress. */
  private probeFor(m: HostModem): HealthProbe {
    return {
      connection: async () => {
        if (!m.backend) return 'connected';
        if (m.backend.connection) return m.backend.connection();
        return (await m.backend.details()).connection ?? 'unknown';
      },
      publicIp: (timeoutMs) => measurePublicIp(() => {
        if (m.entry.driver !== 'simulated') return resolveEgress(m.entry.egress!, this.options.interfaces);
        const own = m.extIp ?? m.entry.egress;
        if (!own) throw new Error('the simulated modem has no address yet');
        return own;
      // One pass over the echo URLs: a check is one request (per URL), not a retry loop.
      }, { urls: this.options.echoUrls, requestTimeoutMs: timeoutMs, deadlineMs: timeoutMs, pauseMs: timeoutMs }),
      ...(this.options.carried ? { carried: () => (m.details ? this.options.carried!(m.details.imei) : 0) } : {}),
    };
  }

  /** The recovery ladder's steps for a modem: its backend's reconnect and reboot, and the power-cycle command if any. */
  private recoveryFor(m: HostModem): RecoveryActions {
    const actions: RecoveryActions = {};
    const backend = m.backend;
    if (backend) {
      actions.reconnect = async () => {
        await backend.reconnect();
        await this.route(m);
      };
      actions.reboot = async () => {
        await backend.reboot();
        await this.route(m);
        if (m.details) await this.history.record(m.details.imei, { event: 'rebooted' }).catch(() => undefined);
      };
    }
    const command = m.entry.powerCycle ?? this.options.powerCycleCommand;
    if (command) {
      try {
        // Checked now, so that a command this modem cannot fill in stops the agent at start, not at 3 a.m.
        powerCycleArgv(command, { usbPort: m.entry.usbPort, imei: '0' });
      } catch (err) {
        throw new AgentConfigError(`The agent cannot start; ${describeEntry(m.entry, m.index)}: ${(err as Error).message}`);
      }
      const timeoutMs = this.options.powerCycleTimeoutMs ?? 60_000;
      actions.powerCycle = () => runPowerCycle(powerCycleArgv(command, { usbPort: m.entry.usbPort, imei: m.details?.imei }), timeoutMs);
    }
    return actions;
  }

  /**
   * A check changed the modem's health or measured a new public IP: the IP is the modem's now (unless a rotation
   * started or ran meanwhile: the rotation's own measurement counts), and the heartbeat goes out at once.
   */
  private healthChanged(m: HostModem, extIp: string | undefined): void {
    if (!m.details) return;
    if (extIp && extIp !== m.extIp && !m.rotating && m.rotationsStarted === m.checkFrom) {
      if (m.extIp) {
        this.options.log.info({ modem: this.name(m), ip: extIp, previous: m.extIp }, 'the modem\'s public IP changed without a rotation');
        m.moved = { ip: extIp, previous: m.extIp };
      }
      m.extIp = extIp;
    }
    this.options.onHealthChange?.(m.details.imei);
  }

  private backendFor(entry: ModemEntry): ModemBackend | null {
    if (entry.driver === 'hilink') {
      return new HilinkModem({ baseUrl: entry.management, username: entry.username, password: entry.password, ...this.options.hilink });
    }
    if (entry.driver === 'modemmanager') {
      return new ModemManagerModem({ index: entry.modem, imei: entry.match?.imei, apn: entry.apn, ...this.options.mmcli });
    }
    return null;
  }

  private name(m: HostModem): string { return describeEntry(m.entry, m.index); }

  /** Sets up the modem's policy routing when the agent keeps it; a failure is logged (once), naming the modem and the command. */
  private route(m: HostModem): Promise<void> {
    if (!this.options.policyRouting) return Promise.resolve();
    m.routing = (m.routing ?? Promise.resolve()).then(() => this.applyRouting(m));
    return m.routing;
  }

  private async applyRouting(m: HostModem): Promise<void> {
    const routing = this.options.policyRouting!;
    try {
      const want = modemRouting(m.entry, m.index, routing.firstTable, this.options.interfaces);
      if (!want) return;
      const ran = await applyModemRouting(want, routing.run);
      if (ran.length) this.options.log.info({ modem: this.name(m), commands: ran.map((args) => `ip ${args.join(' ')}`) }, 'policy routing set up');
      m.routingProblem = undefined;
    } catch (err) {
      const message = `policy routing not set up: ${(err as Error).message}`;
      if (m.routingProblem !== message) this.options.log.warn({ modem: this.name(m) }, message);
      m.routingProblem = message;
    }
  }
  private byImei(imei: string): HostModem | undefined { return this.all.find((m) => m.details?.imei === imei); }

  /** Reads every modem (IMEI, model, operator, signal, network type) and measures its public IP; true if any was new. */
  async discover(): Promise<boolean> {
    const found = await Promise.all(this.all.map((m) => this.probe(m)));
    return found.some(Boolean);
  }

  private async probe(m: HostModem): Promise<boolean> {
    if (m.rotating) return false;
    await this.route(m);
    const known = m.details !== null;
    try {
      if (m.entry.driver === 'simulated') {
        m.details = { imei: m.entry.imei, model: 'simulated', connection: 'connected' };
      } else {
        const details = await withTimeout(m.backend!.details(), this.options.probeTimeoutMs ?? 20_000, this.name(m));
        const other = this.all.find((o) => o !== m && o.details?.imei === details.imei);
        if (other) throw new Error(`reports IMEI ${details.imei}, as ${this.name(other)} does: two entries for one modem?`);
        m.details = details;
        if (!m.extIp) {
          m.extIp = await this.measure(m, 5000).catch((err: unknown) => {
            this.options.log.warn({ modem: this.name(m) }, `public IP not measured: ${(err as Error).message}`);
            return undefined;
          });
          if (m.extIp) await this.history.record(details.imei, { event: 'start', ip: m.extIp }).catch(() => undefined);
        }
      }
      if (!known || m.problem) this.options.log.info({ modem: this.name(m), imei: m.details.imei, model: m.details.model, operator: m.details.operator, extIp: m.extIp }, 'modem found');
      m.problem = undefined;
      return !known;
    } catch (err) {
      const message = (err as Error).message;
      if (m.problem !== message) this.options.log.warn({ modem: this.name(m) }, `modem does not answer: ${message}`);
      m.problem = message;
      return false;
    }
  }

  /** Looks at every modem again every `everyMs` (new ones, signal, connection); `onFound` when one answers for the first time. */
  watch(everyMs: number, onFound: () => void): void {
    this.timer = setInterval(() => void this.discover().then((found) => { if (found) onFound(); }), everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.healthTimer) clearInterval(this.healthTimer);
  }

  /**
   * Checks the health of every modem that has answered (and is not rotating) now, as one round: each modem is looked
   * at, then the failures are judged together (notTheModems) before any is counted or recovered. Rounds never overlap.
   * Resolves with each checked modem's result by IMEI.
   */
  checkHealth(): Promise<Map<string, CheckResult>> {
    this.round ??= this.runRound().finally(() => { this.round = null; });
    return this.round;
  }

  private async runRound(): Promise<Map<string, CheckResult>> {
    const ready = this.all.filter((m) => m.details && !m.rotating);
    const looks = await Promise.all(ready.map((m) => {
      m.checkFrom = m.rotationsStarted;
      m.checked = true;
      return m.health.look();
    }));
    const doubt = await this.notTheModems(looks);
    const results = await Promise.all(ready.map(async (m, i) => {
      const result = await m.health.conclude(looks[i]!, doubt);
      if (m.moved) {
        const { ip, previous } = m.moved;
        m.moved = null;
        await this.history.record(m.details!.imei, { event: 'changed', ip, previous }).catch(() => undefined);
      }
      return [m.details!.imei, result] as const;
    }));
    if (doubt !== this.lastDoubt) {
      if (doubt) this.options.log.warn({ failing: looks.filter((l) => !l.passed).length }, `modem checks fail, but not because of the modems: ${doubt}; the modems keep serving and nothing is done to them`);
      else if (this.lastDoubt) this.options.log.info({}, 'modem checks count again');
      this.lastDoubt = doubt;
    }
    this.rounds++;
    this.options.log.debug?.({ round: this.rounds, modems: looks.length, failing: looks.filter((l) => !l.passed).length, ...(doubt ? { heldBack: doubt } : {}) }, 'health round');
    return new Map(results);
  }

  /**
   * Why the failed looks of a round are not the modems' own, or undefined when they may be: every modem of the host
   * (two or more) failed at once, which is the host's network, its USB or the echoes, not each modem; or no echo
   * answers the host itself on its own route either (the echoes are down: the server, when it is the echo).
   */
  private async notTheModems(looks: Look[]): Promise<string | undefined> {
    const failing = looks.filter((l) => !l.passed).length;
    if (failing === 0) return undefined;
    if (looks.length > 1 && failing === looks.length) return `all ${failing} modems of the host failed at once: a host-wide problem, not a modem's`;
    if (await echoAnswersTheHost(this.options.echoUrls, this.healthSettings.requestTimeoutMs)) return undefined;
    return `no IP echo answers the host itself either (${this.options.echoUrls.join(', ')}): the echo is down (the server, when it is the echo) or the host's own network is`;
  }

  /** Checks every modem's health every interval (the first one interval after start: discover() has just looked). */
  watchHealth(): void {
    const tick = () => void this.checkHealth().catch((err: unknown) => this.options.log.error({ err }, 'modem health check failed'));
    this.healthTimer = setInterval(tick, this.healthSettings.intervalMs);
    this.healthTimer.unref();
  }

  /** A modem's health for the heartbeat; undefined before its first check. */
  health(imei: string): ModemHealth | undefined {
    const m = this.byImei(imei);
    return m?.checked ? m.health.report() : undefined;
  }

  /** The public IP last measured through the modem (a health check may find a new one without a rotation). */
  currentIp(imei: string): string | undefined { return this.byImei(imei)?.extIp; }

  /** The recovery steps taken for a modem (oldest first): reconnect, reboot, powerCycle. */
  recoveries(imei: string) { return this.byImei(imei)?.health.recoveries ?? []; }

  private measure(m: HostModem, deadlineMs: number): Promise<string> {
    return measurePublicIp(() => resolveEgress(m.entry.egress!, this.options.interfaces), {
      urls: this.options.echoUrls, requestTimeoutMs: this.options.echoTimeoutMs ?? 10_000, deadlineMs,
    });
  }

  /** The heartbeat's inventory: every configured modem that has told its IMEI. */
  inventory(): HostModemInfo[] {
    return this.all.filter((m) => m.details).map((m) => {
      const d = m.details!;
      const info: HostModemInfo = { imei: d.imei, driver: m.entry.driver, rotations: { ...m.rotations } };
      if (m.entry.name) info.name = m.entry.name;
      for (const key of ['manufacturer', 'model', 'firmware', 'operator', 'networkType', 'signal', 'connection'] as const) {
        if (d[key] !== undefined) (info as Record<string, unknown>)[key] = typeof d[key] === 'string' ? d[key].slice(0, key === 'networkType' ? 10 : 100) : d[key];
      }
      if (m.extIp) info.extIp = m.extIp;
      if (m.problem) info.problem = m.problem.slice(0, 300);
      return info;
    });
  }

  // ModemDriver, by IMEI.

  adopt(serverExtIp: string, imei: string): string {
    const m = this.byImei(imei);
    if (!m) {
      const waiting = this.all.filter((x) => !x.details).map((x) => this.name(x));
      throw new Error(`modem ${imei} is not on this host: not in its modems file${waiting.length ? `, or not answering yet (${waiting.join(', ')})` : ''}`);
    }
    if (m.entry.driver === 'simulated') return (m.extIp = this.options.simulated.adopt(m.entry.egress ?? serverExtIp));
    return m.extIp ?? serverExtIp;
  }

  egress(modem: DrivenModem): string {
    const m = this.byImei(modem.imei);
    if (!m) throw new Error(`modem ${modem.imei} is not on this host`);
    if (m.entry.driver === 'simulated') return modem.extIp;
    return resolveEgress(m.entry.egress!, this.options.interfaces);
  }

  async rotate(modem: DrivenModem, onStatus: (status: 'rotating' | 'applying') => void): Promise<{ extIp: string }> {
    const m = this.byImei(modem.imei);
    if (!m) throw new Error(`modem ${modem.imei} is not on this host`);
    m.rotationsStarted++;
    if (m.entry.driver === 'simulated') {
      const { extIp } = await this.options.simulated.rotate(modem, onStatus);
      m.extIp = extIp;
      return { extIp };
    }
    const backend = m.backend!;
    const previous = m.extIp ?? modem.extIp;
    const started = Date.now();
    m.rotating = true;
    m.rotations.total++;
    onStatus('rotating');
    try {
      for (let attempt = 1; attempt <= this.options.rotateAttempts; attempt++) {
        await backend.reconnect();
        await this.route(m);
        if (attempt === 1) onStatus('applying');
        const ip = await this.measure(m, this.options.echoDeadlineMs ?? 30_000);
        if (ip !== previous) {
          m.extIp = ip;
          m.rotations.succeeded++;
          m.rotations.lastMs = Date.now() - started;
          await this.history.record(modem.imei, { event: 'rotated', ip, previous, ms: m.rotations.lastMs, attempts: attempt }).catch(() => undefined);
          return { extIp: ip };
        }
        this.options.log.warn({ modem: this.name(m), ip, attempt }, 'the modem came back with the same IP');
      }
      m.rotations.collisions++;
      m.rotations.lastMs = Date.now() - started;
      await this.history.record(modem.imei, { event: 'collision', ip: previous, ms: m.rotations.lastMs, attempts: this.options.rotateAttempts }).catch(() => undefined);
      throw new IpCollisionError(`IP collision: the modem came back with the same IP ${previous} after ${this.options.rotateAttempts} reconnects; the carrier keeps giving it this address (try again later, or reboot the modem)`);
    } catch (err) {
      if (!(err instanceof IpCollisionError)) {
        await this.history.record(modem.imei, { event: 'failed', previous, ms: Date.now() - started, error: (err as Error).message.slice(0, 300) }).catch(() => undefined);
      }
      throw err;
    } finally {
      m.rotating = false;
    }
  }

  /** Restarts a modem (HiLink device/control, mmcli --reset) and measures its IP again. */
  async reboot(imei: string): Promise<void> {
    const m = this.byImei(imei);
    if (!m?.backend) throw new Error(`modem ${imei} cannot be rebooted from this host`);
    await m.backend.reboot();
    await this.route(m);
    m.extIp = await this.measure(m, this.options.echoDeadlineMs ?? 30_000);
    await this.history.record(imei, { event: 'rebooted', ip: m.extIp }).catch(() => undefined);
  }

  /** The IP history kept for a modem. */
  ipHistory(imei: string) { return this.history.read(imei); }
}
