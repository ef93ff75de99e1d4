import type { Heartbeat, ModemQuality } from '@cellport/shared/schemas/host-protocol';
import type { CatalogRepository } from './catalog.repository.js';

// Each modem's rolling median of its last speed tests (issue 27, item 8; docs/decisions/039-catalog-quality.md). The
// agent sends its modem's last result with every heartbeat; a new result (a new `at`) joins the modem's window of
// the last WINDOW results, kept in memory by the instance that holds the host's agent. The median is written to
// modem_quality only when it changes, so a heartbeat costs no query and every instance's catalog reads one truth.

export const QUALITY_WINDOW = 5;

export interface QualityMedian { latencyMs: number; downKbps: number; upKbps: number; udp: boolean | null; samples: number; at: string }

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The median of a window of results; UDP by the majority of the checked ones (a tie counts as working). */
export function windowMedian(window: readonly ModemQuality[]): QualityMedian {
  const checked = window.filter((q) => q.udp !== null);
  const yes = checked.filter((q) => q.udp).length;
  return {
    latencyMs: Math.round(median(window.map((q) => q.latencyMs))),
    downKbps: Math.round(median(window.map((q) => q.downMbps)) * 1000),
    upKbps: Math.round(median(window.map((q) => q.upMbps)) * 1000),
    udp: checked.length ? yes * 2 >= checked.length : null,
    samples: window.length,
    at: window[window.length - 1]!.at,
  };
}

const same = (a: QualityMedian | undefined, b: QualityMedian) =>
  !!a && a.latencyMs === b.latencyMs && a.downKbps === b.downKbps && a.upKbps === b.upKbps && a.udp === b.udp && a.samples === b.samples;

export class ModemQualityTracker {
  private readonly windows = new Map<string, ModemQuality[]>();
  private readonly written = new Map<string, QualityMedian>();

  constructor(private readonly repo: CatalogRepository) {}

  /** Takes a heartbeat's results; writes the medians that changed (one statement per changed modem). */
  async record(hostId: string, modems: Heartbeat['modems']): Promise<void> {
    for (const m of modems) {
      if (!m.quality) continue;
      const window = this.windows.get(m.imei) ?? [];
      if (window.at(-1)?.at === m.quality.at) continue;
      window.push(m.quality);
      if (window.length > QUALITY_WINDOW) window.shift();
      this.windows.set(m.imei, window);
      const next = windowMedian(window);
      if (same(this.written.get(m.imei), next)) continue;
      await this.write(hostId, m.imei, next);
      this.written.set(m.imei, next);
    }
  }

  /** The window kept for a modem (tests, diagnostics). */
  window(imei: string): readonly ModemQuality[] { return this.windows.get(imei) ?? []; }

  private async write(hostId: string, imei: string, q: QualityMedian): Promise<void> {
    // Only a modem of the reporting host: an agent cannot write another host's numbers.
    const modemId = await this.repo.hostModemId(hostId, imei);
    if (!modemId) return;
    await this.repo.saveQuality(modemId, {
      latency_ms: q.latencyMs, down_kbps: q.downKbps, up_kbps: q.upKbps, udp: q.udp, samples: q.samples, measured_at: q.at,
    });
  }
}
