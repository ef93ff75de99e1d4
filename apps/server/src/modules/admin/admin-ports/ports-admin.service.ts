import type { AdminPort } from '@cellport/shared/schemas/admin/customers';
import { sql } from 'kysely';
import type { Database } from '../../../db/database.js';
import { AppError } from '../../../lib/app-error.js';
import type { AuditActor, AuditLog } from '../audit/audit.service.js';
import { selectAdminPorts, toAdminPort } from './admin-port.js';

/**
 * Abuse handling: an operator suspends a port (it refuses connections and its open tunnels close: the ports trigger
 * announces the change to the host agent) and resumes it. Each is one conditional update of ports.suspended_at, so
 * of two operators acting at once one wins and the other gets a 409; the audit entry commits with it.
 */
export class PortsAdminService {
  constructor(private readonly db: Database, private readonly audit: AuditLog) {}

  async suspend(actor: AuditActor, portId: string, reason?: string): Promise<AdminPort> {
    return this.db.transaction().execute(async (tx) => {
      const row = await tx.updateTable('ports').set({ suspended_at: sql<Date>`now()` })
        .where('id', '=', portId).where('suspended_at', 'is', null).where('status', '<>', 'released')
        .returning(['id', 'suspended_at']).executeTakeFirst();
      if (!row) {
        const port = await tx.selectFrom('ports').select(['status', 'suspended_at']).where('id', '=', portId).executeTakeFirst();
        if (!port) throw new AppError('PORT_NOT_FOUND');
        throw port.suspended_at ? new AppError('PORT_ALREADY_SUSPENDED') : new AppError('PORT_RELEASED');
      }
      const port = await selectAdminPorts(tx).innerJoin('users as u', 'u.id', 'p.user_id').select('u.email')
        .where('p.id', '=', portId).executeTakeFirstOrThrow();
      await this.audit.record(tx, actor, {
        action: 'port.suspend', targetType: 'port', targetId: portId,
        before: { name: port.name, owner: port.email, userId: port.user_id, suspendedAt: null },
        after: { name: port.name, owner: port.email, userId: port.user_id, suspendedAt: row.suspended_at, reason: reason ?? null },
      });
      return toAdminPort(port);
    });
  }

  async resume(actor: AuditActor, portId: string, reason?: string): Promise<AdminPort> {
    return this.db.transaction().execute(async (tx) => {
      const before = await tx.selectFrom('ports').select(['suspended_at']).where('id', '=', portId).forUpdate().executeTakeFirst();
      if (!before) throw new AppError('PORT_NOT_FOUND');
      const row = await tx.updateTable('ports').set({ suspended_at: null })
        .where('id', '=', portId).where('suspended_at', 'is not', null).returning('id').executeTakeFirst();
      if (!row || !before.suspended_at) throw new AppError('PORT_NOT_SUSPENDED');
      const port = await selectAdminPorts(tx).innerJoin('users as u', 'u.id', 'p.user_id').select('u.email')
        .where('p.id', '=', portId).executeTakeFirstOrThrow();
      await this.audit.record(tx, actor, {
        action: 'port.resume', targetType: 'port', targetId: portId,
        before: { name: port.name, owner: port.email, userId: port.user_id, suspendedAt: before.suspended_at },
        after: { name: port.name, owner: port.email, userId: port.user_id, suspendedAt: null, reason: reason ?? null },
      });
      return toAdminPort(port);
    });
  }
}
