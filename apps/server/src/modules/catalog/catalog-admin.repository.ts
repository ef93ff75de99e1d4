import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Database, Tx } from '../../db/database.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/pg-errors.js';
import type { RotationIntervalsTable } from '../../db/tables/admin.js';
import type { CarriersTable, CountriesTable, RegionsTable, TariffsTable } from '../../db/tables/catalog.js';
import { AppError } from '../../lib/app-error.js';

export type TariffRecord = Selectable<TariffsTable>;
export type NewTariff = Insertable<TariffsTable>;
/** The catalog tables whose rows the console deletes alike, by id (catalog-admin.service.ts `remove`). */
export type PlaceTable = 'countries' | 'carriers' | 'regions';

/** Turns constraint violations into answers: a duplicate name, or a row still referenced elsewhere. */
function conflicts(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError('ALREADY_EXISTS');
  if (isForeignKeyViolation(error)) throw new AppError('IN_USE');
  throw error;
}

/**
 * The console's writes of the catalog: countries, carriers, regions, tariffs and rotation-interval choices, each in
 * the transaction `write` opens (the service records its audit entry there). The lists it shows are read by
 * catalog.repository.ts, as customers' are.
 */
export class CatalogAdminRepository {
  constructor(private readonly db: Database) {}

  /** One console write; a constraint it breaks is ALREADY_EXISTS or IN_USE, not a 500. */
  write<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work).catch(conflicts);
  }

  // ---- countries, carriers, regions ----
  insertCountry(tx: Tx, values: Insertable<CountriesTable>) {
    return tx.insertInto('countries').values(values).returningAll().executeTakeFirstOrThrow();
  }
  lockCountry(tx: Tx, id: string) {
    return tx.selectFrom('countries').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  }
  updateCountry(tx: Tx, id: string, values: Updateable<CountriesTable>) {
    return tx.updateTable('countries').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }
  async countryExists(tx: Tx, id: string): Promise<boolean> {
    return (await tx.selectFrom('countries').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  insertCarrier(tx: Tx, values: Insertable<CarriersTable>) {
    return tx.insertInto('carriers').values(values).returningAll().executeTakeFirstOrThrow();
  }
  lockCarrier(tx: Tx, id: string) {
    return tx.selectFrom('carriers').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  }
  updateCarrier(tx: Tx, id: string, values: Updateable<CarriersTable>) {
    return tx.updateTable('carriers').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }
  /** The country a carrier belongs to, or undefined when there is no such carrier. */
  async carrierCountry(tx: Tx, id: string): Promise<string | undefined> {
    return (await tx.selectFrom('carriers').select('country_id').where('id', '=', id).executeTakeFirst())?.country_id;
  }

  insertRegion(tx: Tx, values: Insertable<RegionsTable>) {
    return tx.insertInto('regions').values(values).returningAll().executeTakeFirstOrThrow();
  }
  lockRegion(tx: Tx, id: string) {
    return tx.selectFrom('regions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  }
  updateRegion(tx: Tx, id: string, values: Updateable<RegionsTable>) {
    return tx.updateTable('regions').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }
  /** Where a region lies (its country and carrier), or undefined when there is no such region. */
  regionPlace(tx: Tx, id: string) {
    return tx.selectFrom('regions').select(['country_id', 'carrier_id']).where('id', '=', id).executeTakeFirst();
  }

  /** A country, carrier or region, locked for its deletion. */
  lockPlace(tx: Tx, table: PlaceTable, id: string) {
    return tx.selectFrom(table).selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  }
  async deletePlace(tx: Tx, table: PlaceTable, id: string): Promise<void> {
    await tx.deleteFrom(table).where('id', '=', id).execute();
  }

  // ---- tariffs ----
  insertTariff(tx: Tx, values: NewTariff) {
    return tx.insertInto('tariffs').values(values).returningAll().executeTakeFirstOrThrow();
  }
  lockTariff(tx: Tx, id: string) {
    return tx.selectFrom('tariffs').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  }
  updateTariff(tx: Tx, id: string, values: Updateable<TariffsTable>) {
    return tx.updateTable('tariffs').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }
  async deleteTariff(tx: Tx, id: string): Promise<void> {
    await tx.deleteFrom('tariffs').where('id', '=', id).execute();
  }
  /** A tariff as committed, for its announcement after the write. */
  committedTariff(id: string) {
    return this.db.selectFrom('tariffs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  // ---- rotation intervals ----
  insertInterval(tx: Tx, values: Insertable<RotationIntervalsTable>) {
    return tx.insertInto('rotation_intervals').values(values).returningAll().executeTakeFirstOrThrow();
  }
  lockInterval(tx: Tx, minutes: number) {
    return tx.selectFrom('rotation_intervals').selectAll().where('minutes', '=', minutes).forUpdate().executeTakeFirst();
  }
  updateInterval(tx: Tx, minutes: number, values: Updateable<RotationIntervalsTable>) {
    return tx.updateTable('rotation_intervals').set(values).where('minutes', '=', minutes).returningAll().executeTakeFirstOrThrow();
  }
  async deleteInterval(tx: Tx, minutes: number): Promise<void> {
    await tx.deleteFrom('rotation_intervals').where('minutes', '=', minutes).execute();
  }
}
