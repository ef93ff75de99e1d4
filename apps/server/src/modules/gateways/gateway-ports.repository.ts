import type { Tx } from '../../db/database.js';

/** A number some host behind a gateway serves, with that host's name (for the conflict's message). */
export interface ServedNumber { http_port: number | null; socks_port: number | null; name: string }

/**
 * The reads behind the gateway's port rule (gateway-ports.ts): the locks that order two writes for one gateway, and
 * the numbers the hosts behind a gateway serve — their modems' (not retired) and their customers' ports' own.
 */
export class GatewayPortsRepository {
  /** Locks the gateway's row; false when there is none. */
  async lockGateway(tx: Tx, gatewayId: string): Promise<boolean> {
    const row = await tx.selectFrom('gateways').select('id').where('id', '=', gatewayId).forUpdate().executeTakeFirst();
    return row !== undefined;
  }

  /** The gateway the host is pinned to (null: direct, undefined: no such host), its row held FOR SHARE. */
  async gatewayOfHost(tx: Tx, hostId: string): Promise<string | null | undefined> {
    const host = await tx.selectFrom('hosts').select('gateway_id').where('id', '=', hostId).forShare().executeTakeFirst();
    return host?.gateway_id;
  }

  /** The numbers `hostId` would have its gateway listen on: its serving modems' and its live ports' own. */
  async numbersOfHost(tx: Tx, hostId: string): Promise<number[]> {
    const [modems, ports] = await Promise.all([
      tx.selectFrom('modems').select(['http_port', 'socks_port']).where('host_id', '=', hostId).where('retired', '=', false).execute(),
      tx.selectFrom('ports as p').innerJoin('modems as m', 'm.id', 'p.modem_id')
        .select(['p.http_port', 'p.socks_port'])
        .where('p.status', '<>', 'released').where('p.http_port', 'is not', null).where('m.host_id', '=', hostId).execute(),
    ]);
    return [...modems.flatMap((m) => [m.http_port, m.socks_port]), ...ports.flatMap((p) => [p.http_port!, p.socks_port!])];
  }

  /**
   * Which of `ports` the other hosts pinned to the gateway serve: first their serving modems' numbers (but
   * `exceptModemId`'s), then their live ports' own, each by host name.
   */
  async servedByOthers(tx: Tx, gatewayId: string, hostId: string, ports: readonly number[], exceptModemId?: string):
    Promise<{ modems: ServedNumber[]; ports: ServedNumber[] }> {
    let modems = tx.selectFrom('modems as m').innerJoin('hosts as h', 'h.id', 'm.host_id')
      .select(['m.http_port', 'm.socks_port', 'h.name'])
      .where('h.gateway_id', '=', gatewayId).where('h.id', '<>', hostId).where('m.retired', '=', false)
      .where((eb) => eb.or([eb('m.http_port', 'in', [...ports]), eb('m.socks_port', 'in', [...ports])]));
    if (exceptModemId) modems = modems.where('m.id', '<>', exceptModemId);
    const modemRows = await modems.orderBy('h.name').execute();
    const portRows = await tx.selectFrom('ports as p').innerJoin('modems as m', 'm.id', 'p.modem_id').innerJoin('hosts as h', 'h.id', 'm.host_id')
      .select(['p.http_port', 'p.socks_port', 'h.name'])
      .where('h.gateway_id', '=', gatewayId).where('h.id', '<>', hostId).where('p.status', '<>', 'released')
      .where((eb) => eb.or([eb('p.http_port', 'in', [...ports]), eb('p.socks_port', 'in', [...ports])]))
      .orderBy('h.name').execute();
    return { modems: modemRows, ports: portRows };
  }
}
