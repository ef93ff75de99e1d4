import type { Tx } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { ModemsRepository, ModemValues } from './modems.repository.js';

/** Checks that the host exists and that carrier and region belong to the country (and region to the carrier). */
export async function assertModemRefs(
  repo: ModemsRepository, tx: Tx, v: Pick<ModemValues, 'host_id' | 'country_id' | 'carrier_id' | 'region_id'>,
): Promise<void> {
  const { host, carrier, region } = await repo.refs(tx, v);
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
