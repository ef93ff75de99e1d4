import { ERRORS } from '@cellport/shared';
import type { Tx } from '../../../db/database.js';
import { AppError } from '../../../lib/app-error.js';

// A gateway listens on the same port numbers for every host it relays (docs/decisions/031-gateway.md), so the HTTP
// and SOCKS ports of the modems (not retired: those serve nothing) of all hosts pinned to one gateway must differ —
// across hosts and across kinds. Every write that could break that checks here with the gateway's row locked, so two
// such writes for one gateway are checked one after the other. Lock order: the host's row, then the gateway's.

/** The first of `ports` that a modem of another host pinned to the gateway serves, and that host's name. */
export async function portTakenOnGateway(
  tx: Tx, gatewayId: string, hostId: string, ports: readonly number[], exceptModemId?: string,
): Promise<{ port: number; host: string } | null> {
  if (ports.length === 0) return null;
  let query = tx.selectFrom('modems as m').innerJoin('hosts as h', 'h.id', 'm.host_id')
    .select(['m.http_port', 'm.socks_port', 'h.name'])
    .where('h.gateway_id', '=', gatewayId).where('h.id', '<>', hostId).where('m.retired', '=', false)
    .where((eb) => eb.or([eb('m.http_port', 'in', [...ports]), eb('m.socks_port', 'in', [...ports])]));
  if (exceptModemId) query = query.where('m.id', '<>', exceptModemId);
  const rows = await query.orderBy('h.name').execute();
  // Customers' ports own their numbers (decision 045): those served on the other hosts count as theirs too.
  const portRows = await tx.selectFrom('ports as p').innerJoin('modems as m', 'm.id', 'p.modem_id').innerJoin('hosts as h', 'h.id', 'm.host_id')
    .select(['p.http_port', 'p.socks_port', 'h.name'])
    .where('h.gateway_id', '=', gatewayId).where('h.id', '<>', hostId).where('p.status', '<>', 'released')
    .where((eb) => eb.or([eb('p.http_port', 'in', [...ports]), eb('p.socks_port', 'in', [...ports])]))
    .orderBy('h.name').execute();
  for (const port of [...ports].sort((a, b) => a - b)) {
    const row = rows.find((r) => r.http_port === port || r.socks_port === port)
      ?? portRows.find((r) => r.http_port === port || r.socks_port === port);
    if (row) return { port, host: row.name };
  }
  return null;
}

/** GATEWAY_PORT_CONFLICT (409) naming the port and the other host; both travel in the body for the console's text. */
export function gatewayPortConflict(clash: { port: number; host: string }): AppError {
  const message = ERRORS.GATEWAY_PORT_CONFLICT.replace('{{port}}', String(clash.port)).replace('{{host}}', clash.host);
  return new AppError('GATEWAY_PORT_CONFLICT', 409, message, { port: clash.port, host: clash.host });
}

/** Locks the gateway's row; REFERENCE_INVALID when there is none. */
export async function lockGateway(tx: Tx, gatewayId: string): Promise<void> {
  const row = await tx.selectFrom('gateways').select('id').where('id', '=', gatewayId).forUpdate().executeTakeFirst();
  if (!row) throw new AppError('REFERENCE_INVALID');
}

/**
 * For a modem that will serve `ports` on `hostId` (a new one, or `modemId` changed): when the host is pinned to a
 * gateway, refuses ports another host behind it serves. The host's row is held FOR SHARE, so it is not pinned
 * elsewhere meanwhile.
 */
export async function assertModemPortsFreeOnGateway(tx: Tx, hostId: string, ports: readonly number[], modemId?: string): Promise<void> {
  const host = await tx.selectFrom('hosts').select('gateway_id').where('id', '=', hostId).forShare().executeTakeFirst();
  if (!host?.gateway_id) return;
  await lockGateway(tx, host.gateway_id);
  const clash = await portTakenOnGateway(tx, host.gateway_id, hostId, ports, modemId);
  if (clash) throw gatewayPortConflict(clash);
}
