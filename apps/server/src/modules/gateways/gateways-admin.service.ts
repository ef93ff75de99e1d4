import { HOST_PROTOCOL } from '@cellport/shared/schemas/host-protocol';
import type { Gateway, GatewayPatchRequest, GatewayRequest, GatewaysResponse } from '@cellport/shared/schemas/admin/gateways';
import { AppError } from '../../lib/app-error.js';
import type { AuditActor, AuditLog } from '../audit/index.js';
import type { GatewaysAdminRepository } from './gateways-admin.repository.js';

/**
 * The console's gateways (issue 18, docs/decisions/031-gateway.md): add, edit, delete while no host is pinned to one
 * (the rule a host must pass to be pinned is gateway-ports.ts). `trustKey` is the public half of the server's gateway
 * trust key, which the console shows so operators can configure a gateway.
 */
export class GatewaysAdminService {
  constructor(private readonly repo: GatewaysAdminRepository, private readonly audit: AuditLog, private readonly trustKey: string) {}

  /**
   * Every gateway by name with its pinned hosts and those linked now: the agent's last report says up and the host
   * is online (a silent agent's last report may be stale, so it does not count).
   */
  async list(): Promise<GatewaysResponse> {
    const rows = await this.repo.list(HOST_PROTOCOL.offlineAfterSeconds);
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
    const id = await this.repo.transaction(async (tx) => {
      const row = await this.repo.insert(tx, { name: req.name, public_host: req.publicHost, link_url: req.linkUrl });
      await this.audit.record(tx, actor, { action: 'gateway.create', targetType: 'gateway', targetId: row.id, before: null, after: row });
      return row.id;
    });
    return this.one(id);
  }

  async update(actor: AuditActor, id: string, patch: GatewayPatchRequest): Promise<Gateway> {
    await this.repo.transaction(async (tx) => {
      const before = await this.repo.lock(tx, id);
      if (!before) throw new AppError('NOT_FOUND');
      const after = await this.repo.update(tx, id, {
        name: patch.name ?? before.name, public_host: patch.publicHost ?? before.public_host, link_url: patch.linkUrl ?? before.link_url,
      });
      await this.audit.record(tx, actor, { action: 'gateway.update', targetType: 'gateway', targetId: id, before, after });
    });
    return this.one(id);
  }

  /** Deletes a gateway no host is pinned to (IN_USE otherwise: move its hosts first). */
  async remove(actor: AuditActor, id: string): Promise<void> {
    await this.repo.transaction(async (tx) => {
      const before = await this.repo.lock(tx, id);
      if (!before) throw new AppError('NOT_FOUND');
      if (await this.repo.hasPinnedHost(tx, id)) throw new AppError('IN_USE');
      await this.repo.delete(tx, id);
      await this.audit.record(tx, actor, { action: 'gateway.delete', targetType: 'gateway', targetId: id, before, after: null });
    });
  }
}
