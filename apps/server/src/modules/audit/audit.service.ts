import type { AuditQuery, AuditResponse } from '@cellport/shared/schemas/admin/audit';
import type { Tx } from '../../db/database.js';
import { paging, type AuditActor } from '../../lib/console-http.js';
import type { AuditRepository } from './audit.repository.js';
import { redact } from './redact.js';

export type { AuditActor };
export interface AuditChange {
  /** Dotted verb: 'customer.deactivate', 'modem.create'… */
  action: string;
  targetType: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
}

const stored = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(redact(value)));

/** The audit log: written in the transaction of the change it records, so one never exists without the other. */
export class AuditLog {
  constructor(private readonly repository: AuditRepository) {}

  /** `adminId: null`: no operator did it — the system (ip 'system') or a customer's own request (their address). */
  async record(tx: Tx, actor: AuditActor | { adminId: null; ip: string }, change: AuditChange): Promise<void> {
    await this.repository.insert(tx, {
      admin_id: actor.adminId,
      action: change.action,
      target_type: change.targetType,
      target_id: change.targetId,
      before: stored(change.before),
      after: stored(change.after),
      ip: actor.ip.slice(0, 100),
    });
  }

  async search(query: AuditQuery): Promise<AuditResponse> {
    const page = paging(query);
    const { rows, total } = await this.repository.search(query, page);
    return {
      items: rows.map((r) => ({
        id: String(r.id), adminId: r.admin_id, adminEmail: r.email ?? null, action: r.action, targetType: r.target_type,
        targetId: r.target_id, before: r.before ?? null, after: r.after ?? null, ip: r.ip, createdAt: r.created_at.toISOString(),
      })),
      ...total, page: page.page, pageSize: page.pageSize,
    };
  }
}
