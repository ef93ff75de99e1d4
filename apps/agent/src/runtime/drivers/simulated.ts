import { randomInt } from 'node:crypto';
import type { DrivenModem, ModemDriver } from './modem-driver.js';

/**
 * Loopback addresses in use by this agent's simulated modems. Linux routes all of 127/8 to `lo`, so each simulated
 * modem can send from an address of its own (127.0.x.y) and a local site sees which modem a request came through.
 */
export class LoopbackPool {
  private readonly used = new Set<string>();
  claim(ip: string): void { this.used.add(ip); }
  release(ip: string): void { this.used.delete(ip); }
  has(ip: string): boolean { return this.used.has(ip); }
  /** A free 127.0.x.y (x, y in 1..254), never 127.0.0.1. */
  fresh(): string {
    for (;;) {
      const ip = `127.0.${randomInt(1, 255)}.${randomInt(1, 255)}`;
      if (!this.used.has(ip)) return ip;
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A modem whose mobile IP is a loopback address; a rotation takes about `delayMs` and moves it to a free one. */
export class SimulatedModemDriver implements ModemDriver {
  constructor(private readonly pool: LoopbackPool, private readonly delayMs: number) {}

  /**
   * Keeps the server's address when it is a free loopback one; otherwise (a modem added with a documentation IP, or
   * two modems given the same one) takes a fresh one, which the next heartbeat reports to the server.
   */
  adopt(serverExtIp: string): string {
    const ip = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(serverExtIp) && serverExtIp !== '127.0.0.1' && !this.pool.has(serverExtIp)
      ? serverExtIp : this.pool.fresh();
    this.pool.claim(ip);
    return ip;
  }

  egress(modem: DrivenModem): string { return modem.extIp; }

  async rotate(modem: DrivenModem, onStatus: (status: 'rotating' | 'applying') => void): Promise<{ extIp: string }> {
    onStatus('rotating');
    await sleep(this.delayMs * 0.6);
    onStatus('applying');
    await sleep(this.delayMs * 0.4);
    const next = this.pool.fresh();
    this.pool.claim(next);
    this.pool.release(modem.extIp);
    return { extIp: next };
  }
}
