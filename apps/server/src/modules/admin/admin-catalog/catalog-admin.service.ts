import type { FingerprintPresetId } from '@cellport/shared/fingerprint-presets';
import { PERIOD_DAYS } from '@cellport/shared/schemas/catalog';
import type {
  AdminCatalogResponse, AdminTariff, CarrierInput, CountryPatchRequest, CountryRequest, RegionNames, RegionPatchRequest, RegionRequest,
  RotationIntervalPatchRequest, RotationIntervalRequest, TariffPatchRequest, TariffRequest,
} from '@cellport/shared/schemas/admin/catalog';
import type { AppContext } from '../../../context.js';
import { tariffToApi } from '../../catalog/catalog.service.js';
import { limitsToApi, limitsToColumns, type TariffLimitColumns } from '../../catalog/tariff-limits.js';
import { discountsToApi, offersToColumns, trialToApi, type TariffOfferColumns } from '../../catalog/tariff-offers.js';
import type { RegionsTable, TariffsTable } from '../../../db/tables/catalog.js';
import { AppError } from '../../../lib/app-error.js';
import type { Tx } from '../../../db/database.js';
import type { AuditActor, AuditLog } from '../../audit/index.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../../db/pg-errors.js';
import { TOPICS } from '../../../lib/bus-topics.js';

type TariffRow = Omit<TariffsTable, 'id' | 'rotation_interval' | 'recurring' | 'active' | 'sort' | 'fingerprint_default' | keyof TariffLimitColumns | keyof TariffOfferColumns> & {
  id: string; rotation_interval: number; recurring: boolean; active: boolean; sort: number; fingerprint_default: FingerprintPresetId | null;
} & TariffLimitColumns & TariffOfferColumns;
const toTariff = (t: TariffRow): AdminTariff => ({
  id: t.id, names: t.names, price: BigInt(t.price).toString(), period: t.period, periodDays: t.period_days, countryId: t.country_id,
  carrierId: t.carrier_id, regionId: t.region_id, isShared: t.is_shared, rotationInterval: t.rotation_interval,
  recurring: t.recurring, active: t.active, sort: t.sort, limits: limitsToApi(t), fingerprintDefault: t.fingerprint_default,
  trial: trialToApi(t), discounts: discountsToApi(t.volume_discounts),
});

type RegionRow = Pick<RegionsTable, 'country_id' | 'carrier_id' | 'name'> & { id: string; name_ru: string | null; name_cn: string | null };
const toRegion = (r: RegionRow) => ({
  id: r.id, countryId: r.country_id, carrierId: r.carrier_id, name: r.name, names: { en: r.name, ru: r.name_ru ?? '', cn: r.name_cn ?? '' },
});
/** The columns of a region's names: an empty Russian or Chinese name is stored as none (customers read English). */
const regionNameColumns = (names: RegionNames) => ({ name: names.en, name_ru: names.ru || null, name_cn: names.cn || null });

/** Turns constraint violations into answers: a duplicate name, or a row still referenced elsewhere. */
function conflicts(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError('ALREADY_EXISTS');
  if (isForeignKeyViolation(error)) throw new AppError('IN_USE');
  throw error;
}

/**
 * The catalog as operators edit it. Each write and its audit entry share one transaction; tariff writes are
 * announced on the bus (TOPICS.tariffChanged) after the commit so open dashboards refetch the tariffs.
 */
export class CatalogAdminService {
  constructor(private readonly ctx: AppContext, private readonly audit: AuditLog) {}

  private get db() { return this.ctx.db; }

  async catalog(): Promise<AdminCatalogResponse> {
    const [countries, carriers, regions, tariffs, intervals] = await Promise.all([
      this.db.selectFrom('countries').selectAll().orderBy('sort').orderBy('code').execute(),
      this.db.selectFrom('carriers').selectAll().orderBy('name').execute(),
      this.db.selectFrom('regions').selectAll().orderBy('name').execute(),
      this.db.selectFrom('tariffs').selectAll().orderBy('sort').orderBy('price').execute(),
      this.db.selectFrom('rotation_intervals').selectAll().orderBy('sort').orderBy('minutes').execute(),
    ]);
    return {
      countries: countries.map((c) => ({ id: c.id, code: c.code, names: c.names, sort: c.sort })),
      carriers: carriers.map((c) => ({ id: c.id, countryId: c.country_id, name: c.name, asn: c.asn })),
      regions: regions.map(toRegion),
      tariffs: tariffs.map(toTariff),
      rotationIntervals: intervals.map((i) => ({ minutes: i.minutes, labels: i.labels, active: i.active, sort: i.sort })),
    };
  }

  private write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn).catch(conflicts);
  }

  // ---- countries ----
  createCountry(actor: AuditActor, req: CountryRequest) {
    return this.write(async (tx) => {
      const row = await tx.insertInto('countries').values({ code: req.code, names: JSON.stringify(req.names) as never, sort: req.sort ?? 0 })
        .returningAll().executeTakeFirstOrThrow();
      await this.audit.record(tx, actor, { action: 'country.create', targetType: 'country', targetId: row.id, before: null, after: row });
      return { id: row.id, code: row.code, names: row.names, sort: row.sort };
    });
  }
  updateCountry(actor: AuditActor, id: string, req: CountryPatchRequest) {
    return this.write(async (tx) => {
      const before = await tx.selectFrom('countries').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      if (!before) throw new AppError('COUNTRY_NOT_FOUND');
      const row = await tx.updateTable('countries').set({
        code: req.code ?? before.code, names: JSON.stringify(req.names ?? before.names) as never, sort: req.sort ?? before.sort,
      }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
      await this.audit.record(tx, actor, { action: 'country.update', targetType: 'country', targetId: id, before, after: row });
      return { id: row.id, code: row.code, names: row.names, sort: row.sort };
    });
  }
  deleteCountry(actor: AuditActor, id: string) {
    return this.remove(actor, 'countries', 'country', id);
  }

  // ---- carriers ----
  createCarrier(actor: AuditActor, req: CarrierInput) {
    return this.write(async (tx) => {
      const country = await tx.selectFrom('countries').select('id').where('id', '=', req.countryId).executeTakeFirst();
      if (!country) throw new AppError('REFERENCE_INVALID');
      const row = await tx.insertInto('carriers').values({ country_id: req.countryId, name: req.name, asn: req.asn ?? null })
        .returningAll().executeTakeFirstOrThrow();
      await this.audit.record(tx, actor, { action: 'carrier.create', targetType: 'carrier', targetId: row.id, before: null, after: row });
      return { id: row.id, countryId: row.country_id, name: row.name, asn: row.asn };
    });
  }
  updateCarrier(actor: AuditActor, id: string, patch: { name?: string | undefined; asn?: number | null | undefined }) {
    return this.write(async (tx) => {
      const before = await tx.selectFrom('carriers').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      if (!before) throw new AppError('NOT_FOUND');
      const row = await tx.updateTable('carriers')
        .set({ name: patch.name ?? before.name, asn: patch.asn === undefined ? before.asn : patch.asn })
        .where('id', '=', id).returningAll().executeTakeFirstOrThrow();
      await this.audit.record(tx, actor, { action: 'carrier.update', targetType: 'carrier', targetId: id, before, after: row });
      return { id: row.id, countryId: row.country_id, name: row.name, asn: row.asn };
    });
  }
  deleteCarrier(actor: AuditActor, id: string) {
    return this.remove(actor, 'carriers', 'carrier', id);
  }

  // ---- regions ----
  createRegion(actor: AuditActor, req: RegionRequest) {
    return this.write(async (tx) => {
      await this.assertCarrierOf(tx, req.countryId, req.carrierId ?? null);
      const row = await tx.insertInto('regions').values({ country_id: req.countryId, carrier_id: req.carrierId ?? null, ...regionNameColumns(req.names) })
        .returningAll().executeTakeFirstOrThrow();
      await this.audit.record(tx, actor, { action: 'region.create', targetType: 'region', targetId: row.id, before: null, after: row });
      return toRegion(row);
    });
  }
  updateRegion(actor: AuditActor, id: string, req: RegionPatchRequest) {
    return this.write(async (tx) => {
      const before = await tx.selectFrom('regions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      if (!before) throw new AppError('NOT_FOUND');
      const carrierId = req.carrierId !== undefined ? req.carrierId : before.carrier_id;
      await this.assertCarrierOf(tx, before.country_id, carrierId);
      const row = await tx.updateTable('regions').set({ ...(req.names ? regionNameColumns(req.names) : {}), carrier_id: carrierId })
        .where('id', '=', id).returningAll().executeTakeFirstOrThrow();
      await this.audit.record(tx, actor, { action: 'region.update', targetType: 'region', targetId: id, before, after: row });
      return toRegion(row);
    });
  }
  deleteRegion(actor: AuditActor, id: string) {
    return this.remove(actor, 'regions', 'region', id);
  }

  private async assertCarrierOf(tx: Tx, countryId: string, carrierId: string | null): Promise<void> {
    const country = await tx.selectFrom('countries').select('id').where('id', '=', countryId).executeTakeFirst();
    const carrier = carrierId ? await tx.selectFrom('carriers').select('country_id').where('id', '=', carrierId).executeTakeFirst() : null;
    if (!country || (carrierId && carrier?.country_id !== countryId)) throw new AppError('REFERENCE_INVALID');
  }

  /** Deletes a catalog row nothing refers to; the foreign keys answer IN_USE otherwise. */
  private remove(actor: AuditActor, table: 'countries' | 'carriers' | 'regions', type: string, id: string) {
    return this.write(async (tx) => {
      const before = await tx.selectFrom(table).selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      if (!before) throw new AppError('NOT_FOUND');
      await tx.deleteFrom(table).where('id', '=', id).execute();
      await this.audit.record(tx, actor, { action: `${type}.delete`, targetType: type, targetId: id, before, after: null });
    });
  }

  // ---- tariffs ----
  async createTariff(actor: AuditActor, req: TariffRequest): Promise<AdminTariff> {
    const tariff = await this.write(async (tx) => {
      const values = {
        names: JSON.stringify(req.names) as never, price: BigInt(req.price), period: req.period, period_days: PERIOD_DAYS[req.period],
        country_id: req.countryId, carrier_id: req.carrierId ?? null, region_id: req.regionId ?? null, is_shared: req.isShared,
        rotation_interval: req.rotationInterval ?? 0, recurring: req.recurring ?? false, active: req.active ?? true, sort: req.sort ?? 0,
        ...limitsToColumns(req.limits, null), ...offersToColumns(req, null), fingerprint_default: req.fingerprintDefault ?? null,
      };
      await this.assertTariffRefs(tx, values);
      const row = await tx.insertInto('tariffs').values(values).returningAll().executeTakeFirstOrThrow();
      await this.audit.record(tx, actor, { action: 'tariff.create', targetType: 'tariff', targetId: row.id, before: null, after: row });
      return toTariff(row);
    });
    await this.announce(tariff, 'created');
    return tariff;
  }

  async updateTariff(actor: AuditActor, id: string, req: TariffPatchRequest): Promise<AdminTariff> {
    const tariff = await this.write(async (tx) => {
      const before = await tx.selectFrom('tariffs').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      if (!before) throw new AppError('TARIFF_NOT_FOUND');
      const period = req.period ?? before.period;
      const values = {
        names: JSON.stringify(req.names ?? before.names) as never, price: req.price !== undefined ? BigInt(req.price) : before.price,
        period, period_days: PERIOD_DAYS[period], country_id: req.countryId ?? before.country_id,
        carrier_id: req.carrierId !== undefined ? req.carrierId : before.carrier_id,
        region_id: req.regionId !== undefined ? req.regionId : before.region_id, is_shared: req.isShared ?? before.is_shared,
        rotation_interval: req.rotationInterval ?? before.rotation_interval, recurring: req.recurring ?? before.recurring,
        active: req.active ?? before.active, sort: req.sort ?? before.sort,
        ...limitsToColumns(req.limits, before), ...offersToColumns(req, before),
        fingerprint_default: req.fingerprintDefault !== undefined ? req.fingerprintDefault : before.fingerprint_default,
      };
      await this.assertTariffRefs(tx, values);
      const row = await tx.updateTable('tariffs').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
      await this.audit.record(tx, actor, { action: 'tariff.update', targetType: 'tariff', targetId: id, before, after: row });
      return toTariff(row);
    });
    await this.announce(tariff, 'updated');
    return tariff;
  }

  /**
   * Deletes a tariff made by mistake, when nothing was ever sold, paid or ordered on it (the foreign keys of ports,
   * payments and orders answer IN_USE otherwise: such a tariff is hidden instead). Open dashboards drop it at once.
   */
  async deleteTariff(actor: AuditActor, id: string): Promise<void> {
    const row = await this.write(async (tx) => {
      const before = await tx.selectFrom('tariffs').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      if (!before) throw new AppError('NOT_FOUND');
      await tx.deleteFrom('tariffs').where('id', '=', id).execute();
      await this.audit.record(tx, actor, { action: 'tariff.delete', targetType: 'tariff', targetId: id, before, after: null });
      return before;
    });
    await this.ctx.bus.publish(TOPICS.tariffChanged, { tariffId: id, action: 'deleted' });
    await this.ctx.bus.publish(TOPICS.tariffRealtime, { action: 'delete', tariff: tariffToApi(row) });
  }

  /**
   * TOPICS.tariffChanged for server-side listeners, and the realtime 'tariff' event customers' dashboards apply
   * (an inactive tariff is a 'delete' for them: it leaves the public list).
   */
  private async announce(tariff: AdminTariff, action: 'created' | 'updated'): Promise<void> {
    await this.ctx.bus.publish(TOPICS.tariffChanged, { tariffId: tariff.id, action });
    const row = await this.db.selectFrom('tariffs').selectAll().where('id', '=', tariff.id).executeTakeFirstOrThrow();
    await this.ctx.bus.publish(TOPICS.tariffRealtime, { action: tariff.active ? 'update' : 'delete', tariff: tariffToApi(row) });
  }

  private async assertTariffRefs(tx: Tx, v: { country_id: string; carrier_id: string | null; region_id: string | null }): Promise<void> {
    await this.assertCarrierOf(tx, v.country_id, v.carrier_id);
    if (v.region_id) {
      const region = await tx.selectFrom('regions').select(['country_id', 'carrier_id']).where('id', '=', v.region_id).executeTakeFirst();
      if (!region || region.country_id !== v.country_id || (region.carrier_id && v.carrier_id && region.carrier_id !== v.carrier_id)) {
        throw new AppError('REFERENCE_INVALID');
      }
    }
  }

  // ---- rotation intervals ----
  createInterval(actor: AuditActor, req: RotationIntervalRequest) {
    return this.write(async (tx) => {
      const row = await tx.insertInto('rotation_intervals').values({
        minutes: req.minutes, labels: req.labels ? JSON.stringify(req.labels) : null, active: req.active ?? true, sort: req.sort ?? req.minutes,
      }).returningAll().executeTakeFirstOrThrow();
      await this.audit.record(tx, actor, { action: 'rotation-interval.create', targetType: 'rotation-interval', targetId: String(row.minutes), before: null, after: row });
      return { minutes: row.minutes, labels: row.labels, active: row.active, sort: row.sort };
    });
  }
  updateInterval(actor: AuditActor, minutes: number, req: RotationIntervalPatchRequest) {
    return this.write(async (tx) => {
      const before = await tx.selectFrom('rotation_intervals').selectAll().where('minutes', '=', minutes).forUpdate().executeTakeFirst();
      if (!before) throw new AppError('NOT_FOUND');
      const labels = req.labels !== undefined ? req.labels : before.labels;
      const row = await tx.updateTable('rotation_intervals').set({
        labels: labels ? JSON.stringify(labels) : null, active: req.active ?? before.active, sort: req.sort ?? before.sort,
      }).where('minutes', '=', minutes).returningAll().executeTakeFirstOrThrow();
      await this.audit.record(tx, actor, { action: 'rotation-interval.update', targetType: 'rotation-interval', targetId: String(minutes), before, after: row });
      return { minutes: row.minutes, labels: row.labels, active: row.active, sort: row.sort };
    });
  }
  deleteInterval(actor: AuditActor, minutes: number) {
    return this.write(async (tx) => {
      const before = await tx.selectFrom('rotation_intervals').selectAll().where('minutes', '=', minutes).forUpdate().executeTakeFirst();
      if (!before) throw new AppError('NOT_FOUND');
      await tx.deleteFrom('rotation_intervals').where('minutes', '=', minutes).execute();
      await this.audit.record(tx, actor, { action: 'rotation-interval.delete', targetType: 'rotation-interval', targetId: String(minutes), before, after: null });
    });
  }
}
