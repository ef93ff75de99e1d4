import type { Database, Tx } from '../../../db/database.js';
import type { ModemsTable } from '../../../db/tables/ports.js';
import { AppError } from '../../../lib/app-error.js';
import { constraintOf, isUniqueViolation } from '../../../db/pg-errors.js';

export type ModemValues = Pick<ModemsTable, 'imei' | 'host_id' | 'http_port' | 'socks_port' | 'ext_ip' | 'country_id' | 'carrier_id'
  | 'region_id' | 'is_shared' | 'rotation_interval'> & { capacity: number; online: boolean };
export const MODEM_AUDIT_COLUMNS = ['id', 'imei', 'host_id', 'http_port', 'socks_port', 'ext_ip', 'online', 'retired', 'country_id', 'carrier_id',
  'region_id', 'is_shared', 'capacity', 'used_slots', 'rotation_interval', 'fingerprint_default'] as const;

/** Checks that the host exists and that carrier and region belong to the country (and region to the carrier). */
export async function assertModemRefs(tx: Tx | Database, v: Pick<ModemValues, 'host_id' | 'country_id' | 'carrier_id' | 'region_id'>): Promise<void> {
  const [host, carrier, region] = await Promise.all([
    tx.selectFrom('hosts').select('id').where('id', '=', v.host_id).executeTakeFirst(),
    tx.selectFrom('carriers').select('country_id').where('id', '=', v.carrier_id).executeTakeFirst(),
    v.region_id ? tx.selectFrom('regions').select(['country_id', 'carrier_id']).where('id', '=', v.region_id).executeTakeFirst() : null,
  ]);
  const ok = host && carrier?.country_id === v.country_id
    && (!v.region_id || (region && region.country_id === v.country_id && (!region.carrier_id || region.carrier_id === v.carrier_id)));
  if (!ok) throw new AppError('REFERENCE_INVALID');
}

/** A modem of one slot (dedicated) or `capacity` slots (shared); shared modems rotate on one schedule. */
export function normalizeModem(v: ModemValues): ModemValues {
  return {
    ...v,
    capacity: v.is_shared ? v.capacity : 1,
    rotation_interval: v.is_shared ? (v.rotation_interval ?? 0) : null,
  };
}

export function rethrowModemConflict(error: unknown): never {
  if (isUniqueViolation(error)) {
    throw new AppError(constraintOf(error).includes('imei') ? 'IMEI_TAKEN' : 'MODEM_PORT_TAKEN', 409);
  }
  throw error;
}

