import type { CatalogOffer } from '@cellport/shared/schemas/catalog';
import { PORTS_CHANNEL, type ChangeAnnouncements } from '../../lib/ports-channel.js';
import type { CatalogRepository, QualityGroupRow, StockFilter, StockGroupRow } from './catalog.repository.js';

// What each choice on Add Proxies buys (issue 27, item 8): stock, measured speeds, latency, UDP and the carrier's
// ASN, per country, carrier, region, port type and rotation interval. The database sums it (the stock of a few hundred
// groups of alike modems; the speeds per choice) and the list is kept in memory: the page, its stock count and the
// public API read it without touching the database. A change to any modem (a sale, a modem going offline: the
// 'cellport_ports' announcement) drops the stock; speeds, UDP and carriers' ASNs are not announced and are read again
// once `ttlMs` old.

const choiceKey = (country: string, carrier: string | null, region: string | null, shared: boolean, interval: number | null) =>
  `${country}|${carrier ?? ''}|${region ?? ''}|${shared}|${interval ?? ''}`;

/**
 * The offers from the database's groups (catalog.repository.ts): each group's stock added into its own choice and
 * the "any carrier" / "any region" ones (a modem without a region is in its carrier's "any region" choice only), then
 * each choice's speeds from the quality rows. Of those, the (carrier, no region) and (any carrier, no region) rows are
 * left out: they hold only the modems without a region, and their choices are the "any region" rows. A choice newer
 * than the quality rows shows as not measured until they are read again.
 */
export function offersOf(stock: readonly StockGroupRow[], quality: readonly QualityGroupRow[]): CatalogOffer[] {
  const offers = new Map<string, CatalogOffer>();
  for (const g of stock) {
    for (const carrier of [g.carrier_id, null]) {
      for (const region of g.region_id ? [g.region_id, null] : [null]) {
        const key = choiceKey(g.country_id, carrier, region, g.is_shared, g.rotation_interval);
        let offer = offers.get(key);
        if (!offer) {
          offer = {
            country_id: g.country_id, carrier_id: carrier, region_id: region, isShared: g.is_shared, rotationInterval: g.rotation_interval,
            inStock: 0, modems: 0, measured: 0, downMbps: null, upMbps: null, latencyMs: null, udp: null, asn: null,
          };
          offers.set(key, offer);
        }
        offer.inStock += g.in_stock;
        offer.modems += g.modems;
      }
    }
  }
  const mbps = (kbps: number | null) => (kbps === null ? null : Math.round(kbps / 100) / 10);
  for (const q of quality) {
    if (!q.any_region && q.region_id === null) continue;
    const offer = offers.get(choiceKey(q.country_id, q.any_carrier ? null : q.carrier_id, q.any_region ? null : q.region_id, q.is_shared, q.rotation_interval));
    if (!offer) continue; // its modems retired since
    offer.measured = q.measured;
    offer.downMbps = mbps(q.down_kbps);
    offer.upMbps = mbps(q.up_kbps);
    offer.latencyMs = q.latency_ms === null ? null : Math.round(q.latency_ms);
    offer.udp = q.udp_checked ? q.udp_yes * 2 >= q.udp_checked : null;
    // One carrier's ASN; "any carrier" has one only when they all share it (no ASN counts as a kind of its own).
    offer.asn = q.asn_kinds === 1 ? q.asn : null;
  }
  return [...offers.values()];
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
  private keptQuality: { rows: QualityGroupRow[]; until: number } | null = null;
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
    const [stock, quality] = await Promise.all([this.repo.stockGroups(), this.quality()]);
    return offersOf(stock, quality);
  }

  /** The choices' speeds, UDP and ASN: not announced, so read again only once `ttlMs` old (the dearer query). */
  private async quality(): Promise<QualityGroupRow[]> {
    if (this.keptQuality && Date.now() < this.keptQuality.until) return this.keptQuality.rows;
    const rows = await this.repo.qualityGroups();
    this.keptQuality = { rows, until: Date.now() + this.ttlMs };
    return rows;
  }
}
