import type { Tx } from '../../db/database.js';
import type { ReplacementRepository } from './replacement.repository.js';

/** The notification's `cause` when the address stayed: its text says nothing needs changing (`port_replaced_address_kept`). */
export const ADDRESS_KEPT = 'address_kept';

/**
 * The numbers a port serves on after moving to a modem of `targetHostId` (issue 28, item 10; decision 045). Listening
 * ports belong to the port: it keeps its own wherever it goes, unless they are in use where it arrives (another
 * port's, or a modem that still listens on its own numbers, on that host or another behind its gateway); then, and
 * for a shared port sold before 045 that had none, it gets new numbers that no modem and no live port of the farm
 * uses. The port's row is locked by the caller and already names its new modem.
 */
export async function settleListeningPorts(
  repo: ReplacementRepository, tx: Tx, portId: string, targetHostId: string, own: { http: number | null; socks: number | null },
): Promise<{ http: number; socks: number; kept: boolean }> {
  if (own.http !== null && own.socks !== null) {
    if (!(await repo.portNumbersTaken(tx, targetHostId, [own.http, own.socks], portId))) return { http: own.http, socks: own.socks, kept: true };
  }
  const [http, socks] = await repo.freePortNumbers(tx);
  await repo.setPortNumbers(tx, portId, http, socks);
  return { http, socks, kept: false };
}
