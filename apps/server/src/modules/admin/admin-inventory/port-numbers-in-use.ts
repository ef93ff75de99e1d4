import { sql } from 'kysely';
import type { Database, Tx } from '../../../db/database.js';
import { AppError } from '../../../lib/app-error.js';

// Customers' ports own their listening numbers (decision 045): the agent listens on them for the port, wherever its
// modem is. A modem the console adds, moves or renumbers must not take a number a live port serves on the host or on
// another host behind its gateway (which listens on the same numbers for all of them).

/** The hosts whose listeners share numbers with `hostId`'s: itself and the others behind its gateway. */
const hostScope = (hostId: string) => sql<string>`(select ${hostId}::uuid union
  select peer.id from hosts self join hosts peer on peer.gateway_id = self.gateway_id where self.id = ${hostId}::uuid)`;

/** The own numbers of live ports served on `hostId`'s scope, but for ports of `exceptModemId`. */
export async function portNumbersNear(db: Database | Tx, hostId: string, exceptModemId?: string): Promise<Set<number>> {
  let q = db.selectFrom('ports as p').innerJoin('modems as m', 'm.id', 'p.modem_id')
    .select(['p.http_port', 'p.socks_port'])
    .where('p.status', '<>', 'released').where('p.http_port', 'is not', null)
    .where('m.host_id', 'in', hostScope(hostId));
  if (exceptModemId) q = q.where('m.id', '<>', exceptModemId);
  const rows = await q.execute();
  return new Set(rows.flatMap((r) => [r.http_port!, r.socks_port!]));
}

/** The own numbers of live ports served on `hostId` itself (a pin to a gateway checks them against its other hosts). */
export async function portNumbersOn(tx: Tx, hostId: string): Promise<number[]> {
  const rows = await tx.selectFrom('ports as p').innerJoin('modems as m', 'm.id', 'p.modem_id')
    .select(['p.http_port', 'p.socks_port'])
    .where('p.status', '<>', 'released').where('p.http_port', 'is not', null).where('m.host_id', '=', hostId).execute();
  return rows.flatMap((r) => [r.http_port!, r.socks_port!]);
}

/** MODEM_PORT_TAKEN when a live port of another modem serves one of `numbers` there. */
export async function assertModemPortsFreeOfPorts(tx: Tx, hostId: string, numbers: readonly number[], modemId?: string): Promise<void> {
  const used = await portNumbersNear(tx, hostId, modemId);
  if (numbers.some((n) => used.has(n))) throw new AppError('MODEM_PORT_TAKEN');
}

/** Every live port's own numbers by the host that serves it (the CSV import checks its rows against them). */
export async function portNumbersByHost(tx: Tx): Promise<Array<{ host_id: string; numbers: number[] }>> {
  const rows = await tx.selectFrom('ports as p').innerJoin('modems as m', 'm.id', 'p.modem_id')
    .select(['m.host_id', 'p.http_port', 'p.socks_port'])
    .where('p.status', '<>', 'released').where('p.http_port', 'is not', null).execute();
  return rows.map((r) => ({ host_id: r.host_id, numbers: [r.http_port!, r.socks_port!] }));
}
