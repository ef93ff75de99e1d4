import { PERIOD_DAYS } from '@cellport/shared/schemas/catalog';
import type {
  AdminCatalogResponse, AdminTariff, CarrierInput, CountryPatchRequest, CountryRequest, RegionNames, RegionPatchRequest, RegionRequest,
  RotationIntervalPatchRequest, RotationIntervalRequest, TariffPatchRequest, TariffRequest,
} from '@cellport/shared/schemas/admin/catalog';
import type { Tx } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { Bus } from '../../lib/bus.js';
import { TOPICS } from '../../lib/bus-topics.js';
import type { AuditActor, AuditLog } from '../audit/index.js';
import type { CatalogAdminRepository, PlaceTable, TariffRecord } from './catalog-admin.repository.js';
import type { CatalogRepository } from './catalog.repository.js';
import { tariffToApi } from './catalog.service.js';
import { limitsToApi, limitsToColumns } from './tariff-limits.js';
import { discountsToApi, offersToColumns, trialToApi } from './tariff-offers.js';

const toTariff = (t: TariffRecord): AdminTariff => ({
  id: t.id, names: t.names, price: BigInt(t.price).toString(), period: t.period, periodDays: t.period_days, countryId: t.country_id,
  carrierId: t.carrier_id, regionId: t.region_id, isShared: t.is_shared, rotationInterval: t.rotation_interval,
  recurring: t.recurring, active: t.active, sort: t.sort, limits: limitsToApi(t), fingerprintDefault: t.fingerprint_default,
  trial: trialToApi(t), discounts: discountsToApi(t.volume_discounts),
});

type RegionRow = { id: string; country_id: string; carrier_id: string | null; name: string; name_ru: string | null; name_cn: string | null };
const toRegion = (r: RegionRow) => ({
  id: r.id, countryId: r.country_id, carrierId: r.carrier_id, name: r.name, names: { en: r.name, ru: r.name_ru ?? '', cn: r.name_cn ?? '' },
});
/** The columns of a region's names: an empty Russian or Chinese name is stored as none (customers read English). */
const regionNameColumns = (names: RegionNames) => ({ name: names.en, name_ru: names.ru || null, name_cn: names.cn || null });

/**
 * The catalog as operators edit it. Each write and its audit entry share one transaction; tariff writes are
 * announced on the bus (TOPICS.tariffChanged) after the commit so open dashboards refetch the tariffs.
 */
export class CatalogAdminService {
  constructor(
    private readonly reads: CatalogRepository, private readonly repo: CatalogAdminRepository,
    private readonly bus: Bus, private readonly audit: AuditLog,
  ) {}

  async catalog(): Promise<AdminCatalogResponse> {
    const rows = this.reads;
    const [countries, carriers, regions, tariffs, intervals] = await Promise.all([
      rows.countries(), rows.carriers(), rows.regions(), rows.tariffs('all'), rows.rotationIntervals('all'),
    ]);
    return {
      countries: countries.map((c) => ({ id: c.id, code: c.code, names: c.names, sort: c.sort })),
      carriers: carriers.map((c) => ({ id: c.id, countryId: c.country_id, name: c.name, asn: c.asn })),
      regions: regions.map(toRegion),
      tariffs: tariffs.map(toTariff),
      rotationIntervals: intervals.map((i) => ({ minutes: i.minutes, labels: i.labels, active: i.active, sort: i.sort })),
    };
  }

  // ---- countries ----
  createCountry(actor: AuditActor, req: CountryRequest) {
    return this.repo.write(async (tx) => {
      const row = await this.repo.insertCountry(tx, { code: req.code, names: JSON.stringify(req.names) as never, sort: req.sort ?? 0 });
      await this.audit.record(tx, actor, { action: 'country.create', targetType: 'country', targetId: row.id, before: null, after: row });
      return { id: row.id, code: row.code, names: row.names, sort: row.sort };
    });
  }
  updateCountry(actor: AuditActor, id: string, req: CountryPatchRequest) {
    return this.repo.write(async (tx) => {
      const before = await this.repo.lockCountry(tx, id);
      if (!before) throw new AppError('COUNTRY_NOT_FOUND');
      const row = await this.repo.updateCountry(tx, id, {
        code: req.code ?? before.code, names: JSON.stringify(req.names ?? before.names) as never, sort: req.sort ?? before.sort,
      });
      await this.audit.record(tx, actor, { action: 'country.update', targetType: 'country', targetId: id, before, after: row });
      return { id: row.id, code: row.code, names: row.names, sort: row.sort };
    });
  }
  deleteCountry(actor: AuditActor, id: string) {
    return this.remove(actor, 'countries', 'country', id);
  }

  // ---- carriers ----
  createCarrier(actor: AuditActor, req: CarrierInput) {
    return this.repo.write(async (tx) => {
      if (!await this.repo.countryExists(tx, req.countryId)) throw new AppError('REFERENCE_INVALID');
      const row = await this.repo.insertCarrier(tx, { country_id: req.countryId, name: req.name, asn: req.asn ?? null });
      await this.audit.record(tx, actor, { action: 'carrier.create', targetType: 'carrier', targetId: row.id, before: null, after: row });
      return { id: row.id, countryId: row.country_id, name: row.name, asn: row.asn };
    });
  }
  updateCarrier(actor: AuditActor, id: string, patch: { name?: string | undefined; asn?: number | null | undefined }) {
    return this.repo.write(async (tx) => {
      const before = await this.repo.lockCarrier(tx, id);
      if (!before) throw new AppError('NOT_FOUND');
      const row = await this.repo.updateCarrier(tx, id, { name: patch.name ?? before.name, asn: patch.asn === undefined ? before.asn : patch.asn });
      await this.audit.record(tx, actor, { action: 'carrier.update', targetType: 'carrier', targetId: id, before, after: row });
      return { id: row.id, countryId: row.country_id, name: row.name, asn: row.asn };
    });
  }
  deleteCarrier(actor: AuditActor, id: string) {
    return this.remove(actor, 'carriers', 'carrier', id);
  }

  // ---- regions ----
  createRegion(actor: AuditActor, req: RegionRequest) {
    return this.repo.write(async (tx) => {
      await this.assertCarrierOf(tx, req.countryId, req.carrierId ?? null);
      const row = await this.repo.insertRegion(tx, { country_id: req.countryId, carrier_id: req.carrierId ?? null, ...regionNameColumns(req.names) });
      await this.audit.record(tx, actor, { action: 'region.create', targetType: 'region', targetId: row.id, before: null, after: row });
      return toRegion(row);
    });
  }
  updateRegion(actor: AuditActor, id: string, req: RegionPatchRequest) {
    return this.repo.write(async (tx) => {
      const before = await this.repo.lockRegion(tx, id);
      if (!before) throw new AppError('NOT_FOUND');
      const carrierId = req.carrierId !== undefined ? req.carrierId : before.carrier_id;
      await this.assertCarrierOf(tx, before.country_id, carrierId);
      const row = await this.repo.updateRegion(tx, id, { ...(req.names ? regionNameColumns(req.names) : {}), carrier_id: carrierId });
      await this.audit.record(tx, actor, { action: 'region.update', targetType: 'region', targetId: id, before, after: row });
      return toRegion(row);
    });
  }
  deleteRegion(actor: AuditActor, id: string) {
    return this.remove(actor, 'regions', 'region', id);
  }

  private async assertCarrierOf(tx: Tx, countryId: string, carrierId: string | null): Promise<void> {
    const country = await this.repo.countryExists(tx, countryId);
    const carrierCountry = carrierId ? await this.repo.carrierCountry(tx, carrierId) : null;
    if (!country || (carrierId && carrierCountry !== countryId)) throw new AppError('REFERENCE_INVALID');
  }

  /** Deletes a catalog row nothing refers to; the foreign keys answer IN_USE otherwise. */
  private remove(actor: AuditActor, table: PlaceTable, type: string, id: string) {
    return this.repo.write(async (tx) => {
      const before = await this.repo.lockPlace(tx, table, id);
      if (!before) throw new AppError('NOT_FOUND');
      await this.repo.deletePlace(tx, table, id);
      await this.audit.record(tx, actor, { action: `${type}.delete`, targetType: type, targetId: id, before, after: null });
    });
  }

  // ---- tariffs ----
  async createTariff(actor: AuditActor, req: TariffRequest): Promise<AdminTariff> {
    const tariff = await this.repo.write(async (tx) => {
      const values = {
        names: JSON.stringify(req.names) as never, price: BigInt(req.price), period: req.period, period_days: PERIOD_DAYS[req.period],
        country_id: req.countryId, carrier_id: req.carrierId ?? null, region_id: req.regionId ?? null, is_shared: req.isShared,
        rotation_interval: req.rotationInterval ?? 0, recurring: req.recurring ?? false, active: req.active ?? true, sort: req.sort ?? 0,
        ...limitsToColumns(req.limits, null), ...offersToColumns(req, null), fingerprint_default: req.fingerprintDefault ?? null,
      };
      await this.assertTariffRefs(tx, values);
      const row = await this.repo.insertTariff(tx, values);
      await this.audit.record(tx, actor, { action: 'tariff.create', targetType: 'tariff', targetId: row.id, before: null, after: row });
      return toTariff(row);
    });
    await this.announce(tariff, 'created');
    return tariff;
  }

  async updateTariff(actor: AuditActor, id: string, req: TariffPatchRequest): Promise<AdminTariff> {
    const tariff = await this.repo.write(async (tx) => {
      const before = await this.repo.lockTariff(tx, id);
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
      const row = await this.repo.updateTariff(tx, id, values);
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
    const row = await this.repo.write(async (tx) => {
      const before = await this.repo.lockTariff(tx, id);
      if (!before) throw new AppError('NOT_FOUND');
      await this.repo.deleteTariff(tx, id);
      await this.audit.record(tx, actor, { action: 'tariff.delete', targetType: 'tariff', targetId: id, before, after: null });
      return before;
    });
    await this.bus.publish(TOPICS.tariffChanged, { tariffId: id, action: 'deleted' });
    await this.bus.publish(TOPICS.tariffRealtime, { action: 'delete', tariff: tariffToApi(row) });
  }

  /**
   * TOPICS.tariffChanged for server-side listeners, and the realtime 'tariff' event customers' dashboards apply
   * (an inactive tariff is a 'delete' for them: it leaves the public list).
   */
  private async announce(tariff: AdminTariff, action: 'created' | 'updated'): Promise<void> {
    await this.bus.publish(TOPICS.tariffChanged, { tariffId: tariff.id, action });
    const row = await this.repo.committedTariff(tariff.id);
    await this.bus.publish(TOPICS.tariffRealtime, { action: tariff.active ? 'update' : 'delete', tariff: tariffToApi(row) });
  }

  private async assertTariffRefs(tx: Tx, v: { country_id: string; carrier_id: string | null; region_id: string | null }): Promise<void> {
    await this.assertCarrierOf(tx, v.country_id, v.carrier_id);
    if (v.region_id) {
      const region = await this.repo.regionPlace(tx, v.region_id);
      if (!region || region.country_id !== v.country_id || (region.carrier_id && v.carrier_id && region.carrier_id !== v.carrier_id)) {
        throw new AppError('REFERENCE_INVALID');
      }
    }
  }

  // ---- rotation intervals ----
  createInterval(actor: AuditActor, req: RotationIntervalRequest) {
    return this.repo.write(async (tx) => {
      const row = await this.repo.insertInterval(tx, {
        minutes: req.minutes, labels: req.labels ? JSON.stringify(req.labels) : null, active: req.active ?? true, sort: req.sort ?? req.minutes,
      });
      await this.audit.record(tx, actor, { action: 'rotation-interval.create', targetType: 'rotation-interval', targetId: String(row.minutes), before: null, after: row });
      return { minutes: row.minutes, labels: row.labels, active: row.active, sort: row.sort };
    });
  }
  updateInterval(actor: AuditActor, minutes: number, req: RotationIntervalPatchRequest) {
    return this.repo.write(async (tx) => {
      const before = await this.repo.lockInterval(tx, minutes);
      if (!before) throw new AppError('NOT_FOUND');
      const labels = req.labels !== undefined ? req.labels : before.labels;
      const row = await this.repo.updateInterval(tx, minutes, {
        labels: labels ? JSON.stringify(labels) : null, active: req.active ?? before.active, sort: req.sort ?? before.sort,
      });
      await this.audit.record(tx, actor, { action: 'rotation-interval.update', targetType: 'rotation-interval', targetId: String(minutes), before, after: row });
      return { minutes: row.minutes, labels: row.labels, active: row.active, sort: row.sort };
    });
  }
  deleteInterval(actor: AuditActor, minutes: number) {
    return this.repo.write(async (tx) => {
      const before = await this.repo.lockInterval(tx, minutes);
      if (!before) throw new AppError('NOT_FOUND');
      await this.repo.deleteInterval(tx, minutes);
      await this.audit.record(tx, actor, { action: 'rotation-interval.delete', targetType: 'rotation-interval', targetId: String(minutes), before, after: null });
    });
  }
}
