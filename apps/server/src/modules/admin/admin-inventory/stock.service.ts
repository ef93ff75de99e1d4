import { sql } from 'kysely';
import type { StockResponse } from '@cellport/shared/schemas/admin/modems';
import type { Database } from '../../../db/database.js';

/** Port slots of non-retired modems by country, carrier, region and shared/dedicated. */
export async function stockReport(db: Database): Promise<StockResponse> {
  const rows = await db.selectFrom('modems as m')
    .innerJoin('countries as c', 'c.id', 'm.country_id')
    .innerJoin('carriers as k', 'k.id', 'm.carrier_id')
    .leftJoin('regions as r', 'r.id', 'm.region_id')
    .select(['m.country_id', 'c.code', 'm.carrier_id', 'k.name as carrier_name', 'm.region_id', 'r.name as region_name', 'm.is_shared'])
    .select([
      sql<string>`count(*)`.as('modems'),
      sql<string>`sum(m.capacity)`.as('slots'),
      sql<string>`sum(m.used_slots)`.as('used'),
      // A modem in maintenance (issue 15, item 6) is not for sale: its slots count with the offline ones.
      sql<string>`sum(case when m.online and m.maintenance_since is null then m.capacity - m.used_slots else 0 end)`.as('free'),
      sql<string>`sum(case when m.online and m.maintenance_since is null then 0 else m.capacity - m.used_slots end)`.as('offline'),
    ])
    .where('m.retired', '=', false)
    .groupBy(['m.country_id', 'c.code', 'm.carrier_id', 'k.name', 'm.region_id', 'r.name', 'm.is_shared'])
    .orderBy('c.code').orderBy('k.name').orderBy('r.name').orderBy('m.is_shared')
    .execute();
  const items = rows.map((r) => ({
    countryId: r.country_id, countryCode: r.code, carrierId: r.carrier_id, carrierName: r.carrier_name,
    regionId: r.region_id, regionName: r.region_name ?? null, isShared: r.is_shared, modems: Number(r.modems),
    slots: Number(r.slots), used: Number(r.used), free: Number(r.free), offline: Number(r.offline),
  }));
  const sum = (k: 'modems' | 'slots' | 'used' | 'free' | 'offline') => items.reduce((a, i) => a + i[k], 0);
  return { items, totals: { modems: sum('modems'), slots: sum('slots'), used: sum('used'), free: sum('free'), offline: sum('offline') } };
}
