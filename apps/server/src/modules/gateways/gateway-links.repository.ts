import type { GatewayLinkReport, LinkTicketClaims } from '@cellport/shared/schemas/gateway-protocol';
import type { Database } from '../../db/database.js';

/** A host's gateway and its ports, as a link ticket names them; null when the host is direct. */
export interface TicketSubject extends Pick<LinkTicketClaims, 'ports'> { gatewayId: string }

/** The link side of hosts behind gateways (docs/decisions/031-gateway.md): fencing epochs and reported link states. */
export class GatewayLinksRepository {
  constructor(private readonly db: Database) {}

  /** A new, higher epoch for a host whose agent has just connected: its tickets fence every earlier agent's. */
  async nextEpoch(hostId: string): Promise<number> {
    const row = await this.db.insertInto('host_gateway_links').values({ host_id: hostId, epoch: 1 })
      .onConflict((oc) => oc.column('host_id').doUpdateSet((eb) => ({ epoch: eb('host_gateway_links.epoch', '+', 1) })))
      .returning('epoch').executeTakeFirstOrThrow();
    return Number(row.epoch);
  }

  /**
   * The gateway a host is pinned to and the numbers its agent serves; null when it is direct. Decision 045: each live
   * port's own numbers, and a modem's (not retired) only while it has shared ports without numbers of their own. A
   * modem's idle numbers are left out: a port that moved away may hold them on another host behind the gateway.
   */
  async ticketSubject(hostId: string): Promise<TicketSubject | null> {
    const host = await this.db.selectFrom('hosts').select('gateway_id').where('id', '=', hostId).executeTakeFirst();
    if (!host?.gateway_id) return null;
    const rows = await this.db.selectFrom('ports as p').innerJoin('modems as m', 'm.id', 'p.modem_id')
      .select((eb) => [
        eb.fn.coalesce('p.http_port', 'm.http_port').as('http_port'), eb.fn.coalesce('p.socks_port', 'm.socks_port').as('socks_port'),
      ])
      .where('m.host_id', '=', hostId).where('m.retired', '=', false).where('p.status', '<>', 'released')
      .distinct().orderBy('http_port').execute();
    return {
      gatewayId: host.gateway_id,
      ports: rows.flatMap((m) => [{ port: m.http_port, kind: 'http' as const }, { port: m.socks_port, kind: 'socks' as const }]),
    };
  }

  /** Records what the agent reports of its link, when it changed. */
  async record(hostId: string, report: GatewayLinkReport): Promise<void> {
    const problem = report.problem ?? null;
    await this.db.insertInto('host_gateway_links').values({ host_id: hostId, state: report.state, problem })
      .onConflict((oc) => oc.column('host_id').doUpdateSet({ state: report.state, problem, changed_at: new Date() })
        .where((eb) => eb.or([eb('host_gateway_links.state', '<>', report.state), eb('host_gateway_links.problem', 'is distinct from', problem)])))
      .execute();
  }
}
