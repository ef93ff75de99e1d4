import { sql } from 'kysely';
import { HOST_PROTOCOL } from '@cellport/shared/schemas/host-protocol';
import type { Gateway, GatewayPatchRequest, GatewayRequest, GatewaysResponse } from '@cellport/shared/schemas/admin/gateways';
import type { Database, Tx } from '../../../db/database.js';
import { isUniqueViolation } from '../../../db/pg-errors.js';
import { AppError } from '../../../lib/app-error.js';
import type { AuditActor, AuditLog } from '../../audit/index.js';
import { gatewayPortConflict, lockGateway, portTakenOnGateway } from './gateway-ports.js';
import { portNumbersOn } from './port-numbers-in-use.js';

/**
 * Gateways (issue 18, docs/decisions/031-gateway.md): add, edit, delete while no host is pinned to one, and the
 * rule a host must pass to be pinned (its ports free on the gateway). `trustKey` is the public half of the server's
 * gateway trust key, which the console shows so operators can configure a gateway.
 */
export class GatewaysService {
  constructor(private readonly db: Database, private readonly audit: AuditLog, private readonly trustKey: string) {}

  /**
   * Every gateway by name with its pinned hosts and those linked now: the agent's last report says up and the host
   * is online (a silent agent's last report may be stale, so it does not count).
   */
  async list(): Promise<GatewaysResponse> {
    const offline = HOST_PROTOCOL.offlineAfterSeconds;
    const rows = await this.db.selectFrom('gateways as g')
      .leftJoin('hosts as h', 'h.gateway_id', 'g.id')
      .leftJoin('host_gateway_links as l', 'l.host_id', 'h.id')
      .select(['g.id', 'g.name', 'g.public_host', 'g.link_url', 'g.created_at'])
      .select(sql<number>`count(h.id)::int`.as('host_count'))
      .select(sql<number>`(count(h.id) filter (where l.state = 'up'
        and h.last_seen_at > now() - make_interval(secs => ${sql.lit(offline)})))::int`.as('linked_count'))
      .groupBy(['g.id', 'g.name', 'g.public_host', 'g.link_url', 'g.created_at'])
      .orderBy('g.name').execute();
    const items: Gateway[] = rows.map((r) => ({
      id: r.id, name: r.name, publicHost: r.public_host, linkUrl: r.link_url, hostCount: Number(r.host_count),
      linkedHostCount: Number(r.linked_count), createdAt: r.created_at.toISOString(),
    }));
    return { items, trustKey: this.trustKey };
  }

  private async one(id: string): Promise<Gateway> {
    const gateway = (await this.list()).items.find((g) => g.id === id);
    if (!gateway) throw new AppError('NOT_FOUND');
    return gateway;
  }

  async create(actor: AuditActor, req: GatewayRequest): Promise<Gateway> {
    const id = await this.db.transaction().execute(async (tx) => {
      const row = await tx.insertInto('gateways').values({ name: req.name, public_host: req.publicHost, link_url: req.linkUrl })
        .returning(['id', 'name', 'public_host', 'link_url']).executeTakeFirstOrThrow().catch(rethrowDuplicate);
      await this.audit.record(tx, actor, { action: 'gateway.create', targetType: 'gateway', targetId: row.id, before: null, after: row });
      return row.id;
    });
    return this.one(id);
  }

  async update(actor: AuditActor, id: string, patch: GatewayPatchRequest): Promise<Gateway> {
    await this.db.transaction().execute(async (tx) => {
      const before = await tx.selectFrom('gateways').select(['id', 'name', 'public_host', 'link_url']).where('id', '=', id)
        .forUpdate().executeTakeFirst();
      if (!before) throw new AppError('NOT_FOUND');
      const after = await tx.updateTable('gateways')
        .set({ name: patch.name ?? before.name, public_host: patch.publicHost ?? before.public_host, link_url: patch.linkUrl ?? before.link_url })
        .where('id', '=', id).returning(['id', 'name', 'public_host', 'link_url']).executeTakeFirstOrThrow().catch(rethrowDuplicate);
      await this.audit.record(tx, actor, { action: 'gateway.update', targetType: 'gateway', targetId: id, before, after });
    });
    return this.one(id);
  }

  /** Deletes a gateway no host is pinned to (IN_USE otherwise: move its hosts first). */
  async remove(actor: AuditActor, id: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      const before = await tx.selectFrom('gateways').select(['id', 'name', 'public_host', 'link_url']).where('id', '=', id)
        .forUpdate().executeTakeFirst();
      if (!before) throw new AppError('NOT_FOUND');
      const pinned = await tx.selectFrom('hosts').select('id').where('gateway_id', '=', id).limit(1).executeTakeFirst();
      if (pinned) throw new AppError('IN_USE');
      await tx.deleteFrom('gateways').where('id', '=', id).execute();
      await this.audit.record(tx, actor, { action: 'gateway.delete', targetType: 'gateway', targetId: id, before, after: null });
    });
  }

  /**
   * Inside the transaction that pins `hostId` to `gatewayId`: locks the gateway's row, so two hosts pinned at once
   * are checked one after the other, and refuses the pin (GATEWAY_PORT_CONFLICT, naming the port and the other host)
   * when a port of the host's modems is a port of a modem of another host pinned there — the gateway listens on the
   * same port numbers for every host it relays, HTTP and SOCKS alike. Retired modems serve nothing and do not count.
   * An unknown gateway is REFERENCE_INVALID. (gateway-ports.ts: the same rule for modems added to a pinned host.)
   */
  async checkPin(tx: Tx, hostId: string, gatewayId: string): Promise<void> {
    await lockGateway(tx, gatewayId);
    const modems = await tx.selectFrom('modems').select(['http_port', 'socks_port']).where('host_id', '=', hostId)
      .where('retired', '=', false).execute();
    // And its customers' ports' own numbers (decision 045), which the gateway would listen on for this host.
    const own = await portNumbersOn(tx, hostId);
    const clash = await portTakenOnGateway(tx, gatewayId, hostId, [...modems.flatMap((m) => [m.http_port, m.socks_port]), ...own]);
    if (clash) throw gatewayPortConflict(clash);
  }
}

function rethrowDuplicate(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError('ALREADY_EXISTS');
  throw error;
}
