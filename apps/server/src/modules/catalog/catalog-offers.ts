import type { CatalogOffer } from '@cellport/shared/schemas/catalog';
import { PORTS_CHANNEL, type ChangeAnnouncements } from '../../lib/ports-channel.js';
import type { CatalogRepository, OfferGroupRow, StockFilter } from './catalog.repository.js';

// What each choice on Add Proxies buys (issue 27, item 8): stock, measured speeds, latency, UDP and the carrier's
// ASN, per country, carrier, region, port type and rotation interval. The whole list is summed by one query and
// kept in memory: the page, its stock count and the public API read it without touching the database. A change to any modem
// (a sale, a modem going offline: the 'cellport_ports' announcement) drops it; so does its age (carriers' ASNs and
// new speed medians are not announced, and are allowed to show up to `ttlMs` late).

/**
 * The offers from the database's groups (catalog.repository.ts offerGroups). A modem without a region is counted in
 * its carrier's "any region" row, which is also the row its (carrier, no region) group would make: that group is
 * left out, and so is (any carrier, no region), which is the "any of both" row's share.
 */
export function offersOf(groups: readonly OfferGroupRow[]): CatalogOffer[] {
  const offers: CatalogOffer[] = [];
  for (const g of groups) {
    if (!g.any_region && g.region_id === null) continue;
    const mbps = (kbps: number | null) => (kbps === null ? null : Math.round(kbps / 100) / 10);
    offers.push({
      country_id: g.country_id, carrier_id: g.any_carrier ? null : g.carrier_id, region_id: g.any_region ? null : g.region_id,
      isShared: g.is_shared, rotationInterval: g.rotation_interval,
      inStock: g.in_stock, modems: g.modems, measured: g.measured,
      downMbps: mbps(g.down_kbps), upMbps: mbps(g.up_kbps), latencyMs: g.latency_ms === null ? null : Math.round(g.latency_ms),
      udp: g.udp_checked ? g.udp_yes * 2 >= g.udp_checked : null,
      // One carrier's ASN; "any carrier" has one only when they all share it (no ASN counts as a kind of its own).
      asn: g.asn_kinds === 1 ? g.asn : null,
    });
  }
  return offers;
}

/**
 * Ports purchasable now for a choice on Add Proxies (GET /api/v1/modems/count), summed from the offers: the same
 * modems as catalog.repository.ts freeSlots counts. Without a port type both types count; a rotation interval narrows
 * the shared ports only (a dedicated port has none).
 */
export function stockOf(offers: readonly CatalogOffer[], filter: StockFilter): number {
  const carrier = filter.carrierId ?? null;
  const region = filter.regionId ?? null;
  let free = 0;
  for (const o of offers) {
    if (o.country_id !== filter.countryId || o.carrier_id !== carrier || o.region_id !== region) continue;
    if (filter.isShared !== undefined && o.isShared !== filter.isShared) continue;
    if (o.isShared && filter.rotationInterval !== undefined && o.rotationInterval !== filter.rotationInterval) continue;
    free += o.inStock;
  }
  return free;
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
    // A load that began before a change (a stale one) may not hold it: a buyer asking after their purchase waits for one
    // that began after it.
    if (!this.loading || this.loading.stale) {
      const load = { promise: this.load(), stale: false };
      this.loading = load;
      void load.promise.then((offers) => {
        // A change heard while loading may not be in what was read: serve it once, keep it not.
        if (!load.stale && this.unlisten) this.kept = { offers, until: Date.now() + this.ttlMs };
      }, () => {}).finally(() => { if (this.loading === load) this.loading = null; });
    }
    return this.loading.promise;
  }

  /** Ports purchasable now for a choice (GET /api/v1/modems/count), from the kept offers. */
  async stock(filter: StockFilter): Promise<number> {
    return stockOf(await this.offers(), filter);
  }

  private async load(): Promise<CatalogOffer[]> {
    this.loads++;
    return offersOf(await this.repo.offerGroups());
  }
}
