import type { Tx } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { ModemsRepository } from './modems.repository.js';

// Customers' ports own their listening numbers (decision 045): the agent listens on them for the port, wherever its
// modem is. A modem the console adds, moves or renumbers must not take a number a live port serves on the host or on
// another host behind its gateway (which listens on the same numbers for all of them). The numbers are read by
// ModemsRepository (portNumbersNear; importLookups for the CSV import); a pin to a gateway checks them in
// gateways/gateway-ports.ts.

/** MODEM_PORT_TAKEN when a live port of another modem serves one of `numbers` there. */
export async function assertModemPortsFreeOfPorts(
  repo: ModemsRepository, tx: Tx, hostId: string, numbers: readonly number[], modemId?: string,
): Promise<void> {
  const used = await repo.portNumbersNear(hostId, modemId, tx);
  if (numbers.some((n) => used.has(n))) throw new AppError('MODEM_PORT_TAKEN');
}
