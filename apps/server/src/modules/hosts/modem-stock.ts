import type { StockResponse } from '@cellport/shared/schemas/admin/modems';
import type { ModemsRepository } from './modems.repository.js';

/** Port slots of non-retired modems by country, carrier, region and shared/dedicated, with their totals. */
export async function stockReport(repo: ModemsRepository): Promise<StockResponse> {
  const rows = await repo.stock();
  const items = rows.map((r) => ({
    countryId: r.country_id, countryCode: r.code, carrierId: r.carrier_id, carrierName: r.carrier_name,
    regionId: r.region_id, regionName: r.region_name ?? null, isShared: r.is_shared, modems: Number(r.modems),
    slots: Number(r.slots), used: Number(r.used), free: Number(r.free), offline: Number(r.offline),
  }));
  const sum = (k: 'modems' | 'slots' | 'used' | 'free' | 'offline') => items.reduce((a, i) => a + i[k], 0);
  return { items, totals: { modems: sum('modems'), slots: sum('slots'), used: sum('used'), free: sum('free'), offline: sum('offline') } };
}
