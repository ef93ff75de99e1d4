import type { ModemHealth as ReportedHealth, ModemHealthState } from '@cellport/shared/schemas/host-protocol';
import type { Logger } from '../../proxy/types.js';
import type { ConnectionState } from '../drivers/modem-backend.js';

// A modem's health (issue 15, item 5): every interval one check asks its management API, whether it is connected,
// and sends one HTTP request through it (an IP echo, which also measures its public IP). A modem through which no
// request gets for `offlineAfter` checks in a row is offline, and recovery escalates one step per failed check:
// reconnect; then reboot (at most once per `rebootEveryMs`); then the host's power-cycle command for its USB port
// (at most once per `powerCycleEveryMs`); otherwise reconnect again. Traffic that flows is never interrupted: a
// modem whose API hangs while requests get through is degraded, and nothing is done to it.
//
// An echo that does not answer is not a modem that does not answer (issue 28, item 2): the default echo is the
// server, and a server outage must not rotate and reboot the farm. So a failed look is held against the modem only
// when something says it is the modem's: the modem itself says it is not connected, or an echo answers the host on
// its own route while none answers through the modem (and not every modem of the host failed at once). Customer
// traffic the modem carried since the last look proves it works, whatever the echo says. HostModems judges the
// round (look, then conclude with the doubt it found); check() is both for one modem alone.

/** How one modem is looked at. Each call may throw; the checker bounds each by the request timeout. */
export interface HealthProbe {
  /** The management API's view of the data connection; throws when the API does not answer. */
  connection(): Promise<ConnectionState>;
  /** One HTTP request through the modem's egress, within `timeoutMs`: the public IP it is seen from. */
  publicIp(timeoutMs: number): Promise<string>;
  /**
   * What the modem has carried for customers so far: a number that grows while its targets answer through it (bytes
   * received, connections made). Absent: not known.
   */
  carried?(): number;
}

/** What one look at the modem found, before it is judged. */
export interface Look {
  /** A request got through the modem (an echo answered through it, or it carried customer traffic since the last look). */
  passed: boolean;
  reason?: string;
  extIp?: string;
  /** The modem itself says it is not connected (its API answered so): its own failure, whatever the echoes do. */
  saysDown: boolean;
}

/** What recovery can do to the modem; a missing one is skipped. Each is bounded by its own timeouts. */
export interface RecoveryActions {
  reconnect?(): Promise<void>;
  reboot?(): Promise<void>;
  powerCycle?(): Promise<void>;
}

export type RecoveryAction = 'reconnect' | 'reboot' | 'powerCycle';

export interface HealthSettings {
  /** Between checks (default 30 s). */
  intervalMs: number;
  /** The API's answer and the request through the modem, each (default 10 s). */
  requestTimeoutMs: number;
  /** Failed requests in a row that make the modem offline (default 2: one failed check is degraded, not offline). */
  offlineAfter: number;
  /** At most one reboot in this long (default 30 min). */
  rebootEveryMs: number;
  /** At most one power cycle in this long (default 30 min). */
  powerCycleEveryMs: number;
}

export const DEFAULT_HEALTH: HealthSettings = {
  intervalMs: 30_000, requestTimeoutMs: 10_000, offlineAfter: 2, rebootEveryMs: 30 * 60_000, powerCycleEveryMs: 30 * 60_000,
};

export interface Verdict {
  state: ModemHealthState;
  reason?: string;
  /** The public IP the request through the modem saw, when it got through. */
  extIp?: string;
}

export interface CheckResult extends Verdict {
  /** The recovery step this check took, and whether it finished without an error. */
  recovery?: { action: RecoveryAction; ok: boolean; error?: string };
}

export const withTimeout = <T>(p: Promise<T>, ms: number, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what ? `${what}: ` : ''}no answer within ${ms} ms`)), ms); })])
    .finally(() => clearTimeout(timer));
};

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * What one look at the modem finds, before counting failures: online when the API answers, the modem says it is
 * connected and the request got through; degraded when the request got through but the API did not answer or the
 * modem does not say connected; not `passed` when no request got through (degraded or offline, by the count).
 */
export async function probeOnce(probe: HealthProbe, timeoutMs: number): Promise<Look> {
  const [api, ip] = await Promise.allSettled([
    withTimeout(probe.connection(), timeoutMs, ''),
    withTimeout(probe.publicIp(timeoutMs), timeoutMs + 1000, ''),
  ]);
  const apiProblem = api.status === 'rejected' ? `management API does not answer: ${message(api.reason)}`
    : api.value !== 'connected' ? `the modem says it is ${api.value}, not connected` : undefined;
  const saysDown = api.status === 'fulfilled' && api.value !== 'connected' && api.value !== 'unknown';
  if (ip.status === 'rejected') {
    const why = message(ip.reason).replace(/^the public IP could not be measured through the modem: /, '');
    return { passed: false, saysDown, reason: `no request gets through the modem: ${why}${apiProblem ? `; ${apiProblem}` : ''}` };
  }
  return { passed: true, saysDown, extIp: ip.value, ...(apiProblem ? { reason: apiProblem } : {}) };
}

/**
 * One modem's health and its recovery ladder. `check()` runs one check (the timer calls it every interval; tests call
 * it directly); checks never overlap. `now` is the clock the reboot and power-cycle limits are kept by.
 */
export class ModemHealthChecker {
  private current: Verdict = { state: 'online' };
  private since: number;
  private failures = 0;
  /** Recovery steps taken in this outage (the first is a reconnect). */
  private step = 0;
  private lastReboot = Number.NEGATIVE_INFINITY;
  private lastPowerCycle = Number.NEGATIVE_INFINITY;
  private running: Promise<CheckResult> | null = null;
  /** probe.carried() at the last look. */
  private carriedBefore = 0;
  /** Every recovery step taken, oldest first (the last 50). */
  readonly recoveries: Array<{ at: number; action: RecoveryAction; ok: boolean; error?: string }> = [];

  constructor(
    private readonly name: string,
    private readonly probe: HealthProbe,
    private readonly actions: RecoveryActions,
    private readonly settings: HealthSettings,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
    private readonly onChange?: (verdict: Verdict) => void,
  ) {
    this.since = now();
  }

  /** The health as the heartbeat reports it. */
  report(): ReportedHealth {
    return { state: this.current.state, ...(this.current.reason ? { reason: this.current.reason.slice(0, 300) } : {}), since: new Date(this.since).toISOString() };
  }

  get state(): ModemHealthState { return this.current.state; }

  /** One look and its verdict, for a modem judged alone; `doubt` as in conclude(). Checks never overlap. */
  check(doubt?: string): Promise<CheckResult> {
    this.running ??= this.look().then((look) => this.conclude(look, doubt)).finally(() => { this.running = null; });
    return this.running;
  }

  /** Looks at the modem once: its API, one request through it, and whether it carried customer traffic since the last look. */
  async look(): Promise<Look> {
    const found = await probeOnce(this.probe, this.settings.requestTimeoutMs);
    const carried = this.probe.carried?.();
    const moved = carried !== undefined && carried > this.carriedBefore;
    if (carried !== undefined) this.carriedBefore = carried;
    if (found.passed || !moved) return found;
    // Customers' requests get through it: it works, whatever the echo says (the echo may be what is down).
    const echo = found.reason!.replace(/^no request gets through the modem: /, '');
    return { ...found, passed: true, reason: `it carries customer traffic, but the IP echo does not answer through it: ${echo}` };
  }

  /**
   * The verdict on a look, and a step of the recovery ladder when it is the `offlineAfter`-th failure in a row.
   * `doubt`: why a failed look may not be the modem's (the echoes are down, every modem failed at once). A doubted
   * failure is not counted and nothing is done to the modem, unless the modem itself says it is not connected.
   */
  async conclude(look: Look, doubt?: string): Promise<CheckResult> {
    if (look.passed) return this.settle(look);
    if (doubt && !look.saysDown) {
      return this.settle({ ...look, reason: `${look.reason}; not held against the modem: ${doubt}` }, this.current.state === 'offline' ? 'offline' : 'degraded');
    }
    this.failures++;
    if (this.failures < this.settings.offlineAfter) return this.settle(look, 'degraded');
    // Offline, said at once (a reboot may take minutes): then one step of the ladder, and another look at once, so a
    // modem that recovered is not kept offline for another interval.
    const offline = this.settle(look, 'offline');
    const recovery = await this.recover();
    if (!recovery) return offline;
    const after = recovery.ok ? await probeOnce(this.probe, this.settings.requestTimeoutMs) : null;
    if (after?.passed) return { ...this.settle(after), recovery };
    const reason = after?.reason ?? look.reason;
    return { ...this.settle({ passed: false, reason: recovery.ok ? reason : `${reason}; the ${recovery.action} failed: ${recovery.error}` }, 'offline'), recovery };
  }

  private settle(found: { passed: boolean; reason?: string; extIp?: string }, failedAs?: 'degraded' | 'offline'): CheckResult {
    if (found.passed) {
      this.failures = 0;
      this.step = 0;
    }
    const state: ModemHealthState = found.passed ? (found.reason ? 'degraded' : 'online') : failedAs!;
    const verdict: Verdict = { state, ...(found.reason ? { reason: found.reason } : {}), ...(found.extIp ? { extIp: found.extIp } : {}) };
    const changed = state !== this.current.state;
    const moved = !!found.extIp && found.extIp !== this.current.extIp;
    if (changed) {
      this.since = this.now();
      const line = `modem ${this.name} is ${state}${found.reason ? `: ${found.reason}` : ''}`;
      if (state === 'online') this.log.info({ modem: this.name }, line);
      else this.log.warn({ modem: this.name }, line);
    }
    this.current = { ...verdict, ...(verdict.extIp || !this.current.extIp ? {} : { extIp: this.current.extIp }) };
    if (changed || moved) this.onChange?.(verdict);
    return verdict;
  }

  /**
   * The next step of the ladder: a reconnect first in each outage; then a reboot when none was done in the last
   * `rebootEveryMs`; else a power cycle when none was done in the last `powerCycleEveryMs`; else a reconnect again.
   */
  private nextAction(): RecoveryAction | null {
    const now = this.now();
    if (this.step === 0 && this.actions.reconnect) return 'reconnect';
    if (this.actions.reboot && now - this.lastReboot >= this.settings.rebootEveryMs) return 'reboot';
    if (this.actions.powerCycle && now - this.lastPowerCycle >= this.settings.powerCycleEveryMs) return 'powerCycle';
    return this.actions.reconnect ? 'reconnect' : null;
  }

  private async recover(): Promise<{ action: RecoveryAction; ok: boolean; error?: string } | null> {
    const action = this.nextAction();
    if (!action) return null;
    const at = this.now();
    this.step++;
    if (action === 'reboot') this.lastReboot = at;
    if (action === 'powerCycle') this.lastPowerCycle = at;
    this.log.warn({ modem: this.name, action }, `modem ${this.name} is offline: trying ${action === 'powerCycle' ? 'a power cycle of its USB port' : `a ${action}`}`);
    let entry: { action: RecoveryAction; ok: boolean; error?: string };
    try {
      await this.actions[action]!();
      entry = { action, ok: true };
    } catch (err) {
      entry = { action, ok: false, error: message(err) };
      this.log.warn({ modem: this.name, action }, `${action} of modem ${this.name} failed: ${entry.error}`);
    }
    this.recoveries.push({ at, ...entry });
    if (this.recoveries.length > 50) this.recoveries.shift();
    return entry;
  }
}
