import type { ModemQuality } from '@cellport/shared/schemas/host-protocol';
import type { Logger } from '../../proxy/types.js';
import { speedTest, type SpeedTestOptions } from './speed-test.js';
import { checkUdp, type UdpTarget } from './udp-check.js';

// Runs each modem's speed test rarely and one modem at a time (issue 27, item 8; apps/agent README, "Speed tests"):
// every `intervalMs` per modem, the first within `firstDelayMs` of the agent's start. A modem carrying customers
// (more than `maxConnections` open, or any bytes moving faster than `maxBusyBytesPerSecond`) is not tested then: it is
// asked again after `retryMs`. The results go into the heartbeat; the server keeps the median.

export interface TestableModem {
  imei: string;
  /** The source address its traffic leaves from. */
  egress: string;
  /** Customers' connections open on its ports now. */
  connections: number;
  /** Bytes it carried for customers so far (grows while they use it). */
  carried: number;
}

export interface QualitySettings {
  intervalMs: number;
  firstDelayMs: number;
  retryMs: number;
  maxConnections: number;
  maxBusyBytesPerSecond: number;
  speed: SpeedTestOptions;
  /** Where the UDP datagram goes; null: UDP is not checked (reported as null). */
  udp: UdpTarget | null;
}

export class QualityTester {
  private readonly results = new Map<string, ModemQuality>();
  private readonly due = new Map<string, number>();
  private readonly lastCarried = new Map<string, { at: number; bytes: number }>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly started: number;

  constructor(
    private readonly modems: () => TestableModem[],
    private readonly settings: QualitySettings,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
    private readonly onResult?: (imei: string, quality: ModemQuality) => void,
  ) {
    this.started = now();
  }

  /** The last result of each modem, for the heartbeat. */
  result(imei: string): ModemQuality | undefined { return this.results.get(imei); }

  start(): void {
    // A tick every few seconds only looks at clocks; a test runs when one is due.
    this.timer = setInterval(() => { void this.tick(); }, Math.min(5000, Math.max(250, this.settings.firstDelayMs / 4))).unref();
  }

  stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    return this.running ?? Promise.resolve();
  }

  /** Tests every modem that is due and not busy, one after another. Returns when that round is over (tests). */
  tick(): Promise<void> {
    this.running ??= this.round().finally(() => { this.running = null; });
    return this.running;
  }

  private busy(m: TestableModem, at: number): string | null {
    const before = this.lastCarried.get(m.imei);
    this.lastCarried.set(m.imei, { at, bytes: m.carried });
    if (m.connections > this.settings.maxConnections) return `${m.connections} customer connections open`;
    if (before && at > before.at) {
      const rate = ((m.carried - before.bytes) * 1000) / (at - before.at);
      if (rate > this.settings.maxBusyBytesPerSecond) return `carrying ${Math.round(rate)} B/s for customers`;
    }
    return null;
  }

  private async round(): Promise<void> {
    for (const m of this.modems()) {
      const at = this.now();
      if (!this.due.has(m.imei)) this.due.set(m.imei, this.started + this.settings.firstDelayMs);
      // Every tick notes what the modem carried, so its rate is known when its test is due.
      const busy = this.busy(m, at);
      if (at < this.due.get(m.imei)!) continue;
      if (busy) {
        this.log.info({ imei: m.imei }, `speed test of modem ${m.imei} postponed: ${busy}`);
        this.due.set(m.imei, at + this.settings.retryMs);
        continue;
      }
      this.due.set(m.imei, at + this.settings.intervalMs);
      try {
        const speed = await speedTest(this.settings.speed, m.egress);
        const udp = this.settings.udp ? await checkUdp(this.settings.udp, m.egress, Math.min(5000, this.settings.speed.timeoutMs)) : null;
        const quality: ModemQuality = { ...speed, udp, at: new Date(this.now()).toISOString() };
        this.results.set(m.imei, quality);
        this.log.info({ imei: m.imei, ...speed, udp }, `speed test of modem ${m.imei}: ${speed.downMbps} Mbit/s down, ${speed.upMbps} up, ${speed.latencyMs} ms`);
        this.onResult?.(m.imei, quality);
      } catch (err) {
        // A failed test says nothing about the customers' traffic (the target may be what failed): the last result stays.
        this.log.warn({ imei: m.imei, err: err instanceof Error ? err.message : String(err) }, `speed test of modem ${m.imei} failed`);
        this.due.set(m.imei, at + this.settings.retryMs);
      }
    }
  }
}
