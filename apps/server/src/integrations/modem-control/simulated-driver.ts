import { randomInt } from 'node:crypto';
import type { ModemDriver, ModemRef } from './modem-control.js';

export interface SimulatedDriverOptions {
  /** Typical duration of a rotation; each takes between 2/3 and 4/3 of it (so 3000 → 2–4 s). */
  delayMs: number;
  /** Probability that the modem comes back with the IP it had. */
  sameIpRate: number;
  random?: () => number;
}

// Documentation ranges (RFC 5737): never routable, safe to show in a demo.
const RANGES = ['192.0.2', '198.51.100', '203.0.113'];
export const randomDocumentationIp = () => `${RANGES[randomInt(RANGES.length)]}.${randomInt(1, 255)}`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A modem that reconnects after a while with a new address from the documentation pool. */
export class SimulatedModemDriver implements ModemDriver {
  private readonly random: () => number;
  constructor(private readonly options: SimulatedDriverOptions) {
    this.random = options.random ?? Math.random;
  }

  async rotate(modem: ModemRef, onStatus: (status: 'rotating' | 'applying') => void): Promise<{ extIp: string }> {
    const total = this.options.delayMs * (2 / 3 + (2 / 3) * this.random());
    onStatus('rotating');
    await sleep(total * 0.6);
    onStatus('applying');
    await sleep(total * 0.4);
    if (this.random() < this.options.sameIpRate) return { extIp: modem.extIp };
    let ip = randomDocumentationIp();
    while (ip === modem.extIp) ip = randomDocumentationIp();
    return { extIp: ip };
  }
}
