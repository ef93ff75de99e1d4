import { sql } from 'kysely';
import type { AuditQuery, AuditResponse } from '@cellport/shared/schemas/admin/audit';
import type { Database, Tx } from '../../../db/database.js';
import { cappedTotal, containsPattern, LIST_COUNT_CAP, paging, type AuditActor } from '../admin-http.js';
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

/** The audit log: written in the transaction of the change it records, so one never exists without the other. */
export class AuditLog {
  /** countCap: the log's total counts at most this many entries (admin-http.ts, cappedTotal): the log only grows. */
  constructor(private readonly db: Database, private readonly countCap = LIST_COUNT_CAP) {}

  /** `adminId: null`: no operator did it — the system (ip 'system') or a customer's own request (their address). */
  async record(tx: Tx, actor: AuditActor | { adminId: null; ip: string }, change: AuditChange): Promise<void> {
    await tx.insertInto('audit_log').values({
      admin_id: actor.adminId,
      action: change.action,
      target_type: change.targetType,
      target_id: change.targetId,
      before: change.before === undefined || change.before === null ? null : JSON.stringify(redact(change.before)),
      after: change.after === undefined || change.after === null ? null : JSON.stringify(redact(change.after)),
      ip: actor.ip.slice(0, 100),
    }).execute();
  }

  async search(query: AuditQuery): Promise<AuditResponse> {
    const { page, pageSize, offset } = paging(query);
    let q = this.db.selectFrom('audit_log as a').leftJoin('users as u', 'u.id', 'a.admin_id');
    if (query.action) q = q.where('a.action', '=', query.action);
    if (query.admin_id) q = q.where('a.admin_id', '=', query.admin_id);
    if (query.target_type) q = q.where('a.target_type', '=', query.target_type);
    if (query.target_id) q = q.where('a.target_id', '=', query.target_id);
    if (query.from) q = q.where('a.created_at', '>=', new Date(`${query.from}T00:00:00Z`));
    if (query.to) q = q.where('a.created_at', '<', new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000));
    if (query.q) {
      const like = containsPattern(query.q.toLowerCase());
      q = q.where((eb) => eb.or([
        eb(sql`lower(a.action)`, 'like', like),
        eb(sql`lower(coalesce(a.target_id, ''))`, 'like', like),
        eb(sql`lower(coalesce(u.email, ''))`, 'like', like),
        eb(sql`lower(coalesce(a.before::text, '') || ' ' || coalesce(a.after::text, ''))`, 'like', like),
      ]));
    }
    const [rows, total] = await Promise.all([
      q.select(['a.id', 'a.admin_id', 'u.email', 'a.action', 'a.target_type', 'a.target_id', 'a.before', 'a.after', 'a.ip', 'a.created_at'])
        .orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').limit(pageSize).offset(offset).execute(),
      cappedTotal(this.db, q, this.countCap),
    ]);
    return {
      items: rows.map((r) => ({
        id: String(r.id), adminId: r.admin_id, adminEmail: r.email ?? null, action: r.action, targetType: r.target_type,
        targetId: r.target_id, before: r.before ?? null, after: r.after ?? null, ip: r.ip, createdAt: r.created_at.toISOString(),
      })),
      ...total, page, pageSize,
    };
  }
}
