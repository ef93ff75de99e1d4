import type { CatalogOffer } from '@cellport/shared/schemas/catalog';
import { PORTS_CHANNEL, type ChangeAnnouncements } from '../../lib/ports-channel.js';
import type { CatalogRepository } from './catalog.repository.js';
import { median } from './modem-quality-tracker.js';

// What each choice on Add Proxies buys (issue 27, item 8): stock, measured speeds, latency, UDP and the carrier's
// ASN, per country, carrier, region, port type and rotation interval. The whole list is computed from one query
// and kept in memory: the page and the public API read it without touching the database. A change to any modem
// (a sale, a modem going offline: the 'cellport_ports' announcement) drops it; so does its age (carriers' ASNs and
// new speed medians are not announced, and are allowed to show up to `ttlMs` late).

interface ModemRow {
  country_id: string; carrier_id: string; region_id: string | null; is_shared: boolean; rotation_interval: number | null;
  capacity: number; used_slots: number; sellable: boolean;
  latency_ms: number | null; down_kbps: number | null; up_kbps: number | null; udp: boolean | null; asn: number | null;
}

interface Group {
  offer: Omit<CatalogOffer, 'downMbps' | 'upMbps' | 'latencyMs' | 'udp' | 'asn'>;
  down: number[]; up: number[]; latency: number[]; udpYes: number; udpChecked: number; asns: Set<number | null>;
}

/** Groups modems into every choice a buyer can make: each carrier and region, and "any" of each. */
export function offersOf(rows: readonly ModemRow[]): CatalogOffer[] {
  const groups = new Map<string, Group>();
  for (const m of rows) {
    const interval = m.is_shared ? m.rotation_interval : null;
    for (const carrier of [m.carrier_id, null]) {
      for (const region of m.region_id ? [m.region_id, null] : [null]) {
        const key = [m.country_id, carrier, region, m.is_shared, interval].join('|');
        let g = groups.get(key);
        if (!g) {
          g = {
            offer: { country_id: m.country_id, carrier_id: carrier, region_id: region, isShared: m.is_shared, rotationInterval: interval, inStock: 0, modems: 0, measured: 0 },
            down: [], up: [], latency: [], udpYes: 0, udpChecked: 0, asns: new Set(),
          };
          groups.set(key, g);
        }
        g.offer.modems++;
        if (m.sellable) g.offer.inStock += Math.max(0, m.capacity - m.used_slots);
        g.asns.add(m.asn);
        if (m.down_kbps !== null && m.up_kbps !== null && m.latency_ms !== null) {
          g.offer.measured++;
          g.down.push(m.down_kbps);
          g.up.push(m.up_kbps);
          g.latency.push(m.latency_ms);
        }
        if (m.udp !== null) {
          g.udpChecked++;
          if (m.udp) g.udpYes++;
        }
      }
    }
  }
  const mbps = (kbps: number[]) => (kbps.length ? Math.round(median(kbps) / 100) / 10 : null);
  return [...groups.values()].map((g) => ({
    ...g.offer,
    downMbps: mbps(g.down), upMbps: mbps(g.up), latencyMs: g.latency.length ? Math.round(median(g.latency)) : null,
    udp: g.udpChecked ? g.udpYes * 2 >= g.udpChecked : null,
    // One carrier's ASN; "any carrier" has one only when they all share it.
    asn: g.asns.size === 1 ? [...g.asns][0]! : null,
  }));
}

export class CatalogOffersCache {
  private kept: { offers: CatalogOffer[]; until: number } | null = null;
  private loading: { promise: Promise<CatalogOffer[]>; stale: boolean } | null = null;
  private unlisten: (() => Promise<void>) | undefined;
  /** Loads from the database (tests and metrics count them). */
  loads = 0;

  constructor(
    private readonly announcements: ChangeAnnouncements, private readonly repo: CatalogRepository, private readonly ttlMs = 30_000,
  ) {}

  async start(): Promise<void> {
    this.unlisten = await this.announcements.listen(PORTS_CHANNEL, () => this.drop(), () => this.drop());
  }

  async stop(): Promise<void> {
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    await unlisten?.();
    this.drop();
  }

  drop(): void {
    this.kept = null;
    if (this.loading) this.loading.stale = true;
  }

  async offers(): Promise<CatalogOffer[]> {
    if (this.kept && Date.now() < this.kept.until) return this.kept.offers;
    if (!this.loading) {
      const load = { promise: this.load(), stale: false };
      this.loading = load;
      void load.promise.then((offers) => {
        // A change heard while loading may not be in what was read: serve it once, keep it not.
        if (!load.stale && this.unlisten) this.kept = { offers, until: Date.now() + this.ttlMs };
      }, () => {}).finally(() => { if (this.loading === load) this.loading = null; });
    }
    return this.loading.promise;
  }

  private async load(): Promise<CatalogOffer[]> {
    this.loads++;
    const rows = await this.repo.offerModems();
    return offersOf(rows as ModemRow[]);
  }
}
