import type { AdminPort } from '@cellport/shared/schemas/admin/customers';
import { AppError } from '../../lib/app-error.js';
import type { AuditActor, AuditLog } from '../audit/index.js';
import { toAdminPort } from './admin-port.js';
import type { PortsAdminRepository } from './ports-admin.repository.js';

/**
 * Abuse handling: an operator suspends a port (it refuses connections and its open tunnels close: the ports trigger
 * announces the change to the host agent) and resumes it. Each is one conditional update of ports.suspended_at, so
 * of two operators acting at once one wins and the other gets a 409; the audit entry commits with it.
 */
export class PortsAdminService {
  constructor(private readonly repo: PortsAdminRepository, private readonly audit: AuditLog) {}

  /** A customer's ports as the console's customer page lists them: the newest 100 (accounts takes it by injection). */
  async ofCustomer(userId: string): Promise<AdminPort[]> {
    return (await this.repo.ofCustomer(userId)).map(toAdminPort);
  }

  async suspend(actor: AuditActor, portId: string, reason?: string): Promise<AdminPort> {
    return this.repo.transaction(async (tx) => {
      const row = await this.repo.suspend(tx, portId);
      if (!row) {
        const port = await this.repo.suspension(tx, portId);
        if (!port) throw new AppError('PORT_NOT_FOUND');
        throw port.suspended_at ? new AppError('PORT_ALREADY_SUSPENDED') : new AppError('PORT_RELEASED');
      }
      const port = await this.repo.withOwner(tx, portId);
      await this.audit.record(tx, actor, {
        action: 'port.suspend', targetType: 'port', targetId: portId,
        before: { name: port.name, owner: port.email, userId: port.user_id, suspendedAt: null },
        after: { name: port.name, owner: port.email, userId: port.user_id, suspendedAt: row.suspended_at, reason: reason ?? null },
      });
      return toAdminPort(port);
    });
  }

  async resume(actor: AuditActor, portId: string, reason?: string): Promise<AdminPort> {
    return this.repo.transaction(async (tx) => {
      const before = await this.repo.lockSuspension(tx, portId);
      if (!before) throw new AppError('PORT_NOT_FOUND');
      const resumed = await this.repo.resume(tx, portId);
      if (!resumed || !before.suspended_at) throw new AppError('PORT_NOT_SUSPENDED');
      const port = await this.repo.withOwner(tx, portId);
      await this.audit.record(tx, actor, {
        action: 'port.resume', targetType: 'port', targetId: portId,
        before: { name: port.name, owner: port.email, userId: port.user_id, suspendedAt: before.suspended_at },
        after: { name: port.name, owner: port.email, userId: port.user_id, suspendedAt: null, reason: reason ?? null },
      });
      return toAdminPort(port);
    });
  }
}
