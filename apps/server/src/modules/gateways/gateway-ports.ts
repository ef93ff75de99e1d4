import { ERRORS } from '@cellport/shared';
import type { Tx } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { GatewayPortsRepository } from './gateway-ports.repository.js';

// A gateway listens on the same port numbers for every host it relays (docs/decisions/031-gateway.md), so the HTTP
// and SOCKS ports of the modems (not retired: those serve nothing) of all hosts pinned to one gateway must differ —
// across hosts and across kinds. Every write that could break that checks here with the gateway's row locked, so two
// such writes for one gateway are checked one after the other. Lock order: the host's row, then the gateway's.

/** The gateway's port rule, asked by a host's pin (the console's hosts) and a modem's write (the console's modems). */
export class GatewayPorts {
  constructor(private readonly repo: GatewayPortsRepository) {}

  /**
   * Inside the transaction that pins `hostId` to `gatewayId`: locks the gateway's row, so two hosts pinned at once
   * are checked one after the other, and refuses the pin (GATEWAY_PORT_CONFLICT, naming the port and the other host)
   * when a port of the host's modems is a port of a modem of another host pinned there — the gateway listens on the
   * same port numbers for every host it relays, HTTP and SOCKS alike. Retired modems serve nothing and do not count;
   * its customers' ports' own numbers (decision 045) do. An unknown gateway is REFERENCE_INVALID.
   */
  async checkPin(tx: Tx, hostId: string, gatewayId: string): Promise<void> {
    await this.lockGateway(tx, gatewayId);
    const clash = await this.takenOnGateway(tx, gatewayId, hostId, await this.repo.numbersOfHost(tx, hostId));
    if (clash) throw gatewayPortConflict(clash);
  }

  /**
   * For a modem that will serve `ports` on `hostId` (a new one, or `modemId` changed): when the host is pinned to a
   * gateway, refuses ports another host behind it serves. The host's row is held FOR SHARE, so it is not pinned
   * elsewhere meanwhile.
   */
  async assertModemPortsFree(tx: Tx, hostId: string, ports: readonly number[], modemId?: string): Promise<void> {
    const gatewayId = await this.repo.gatewayOfHost(tx, hostId);
    if (!gatewayId) return;
    await this.lockGateway(tx, gatewayId);
    const clash = await this.takenOnGateway(tx, gatewayId, hostId, ports, modemId);
    if (clash) throw gatewayPortConflict(clash);
  }

  /** Locks the gateway's row; REFERENCE_INVALID when there is none. */
  private async lockGateway(tx: Tx, gatewayId: string): Promise<void> {
    if (!await this.repo.lockGateway(tx, gatewayId)) throw new AppError('REFERENCE_INVALID');
  }

  /** The first of `ports` that a modem (or a live port) of another host pinned to the gateway serves, and that host's name. */
  private async takenOnGateway(
    tx: Tx, gatewayId: string, hostId: string, ports: readonly number[], exceptModemId?: string,
  ): Promise<{ port: number; host: string } | null> {
    if (ports.length === 0) return null;
    const served = await this.repo.servedByOthers(tx, gatewayId, hostId, ports, exceptModemId);
    for (const port of [...ports].sort((a, b) => a - b)) {
      // Customers' ports own their numbers (decision 045): those served on the other hosts count as theirs too.
      const row = served.modems.find((r) => r.http_port === port || r.socks_port === port)
        ?? served.ports.find((r) => r.http_port === port || r.socks_port === port);
      if (row) return { port, host: row.name };
    }
    return null;
  }
}

/** GATEWAY_PORT_CONFLICT (409) naming the port and the other host; both travel in the body for the console's text. */
function gatewayPortConflict(clash: { port: number; host: string }): AppError {
  const message = ERRORS.GATEWAY_PORT_CONFLICT.replace('{{port}}', String(clash.port)).replace('{{host}}', clash.host);
  return new AppError('GATEWAY_PORT_CONFLICT', 409, message, { port: clash.port, host: clash.host });
}
