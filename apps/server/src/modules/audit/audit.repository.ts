import { sql } from 'kysely';
import type { AuditQuery } from '@cellport/shared/schemas/admin/audit';
import type { Database, Tx } from '../../db/database.js';
import type { Paging } from '../../lib/console-http.js';
import { cappedTotal, containsPattern, LIST_COUNT_CAP } from '../../lib/console-lists.repository.js';

/** One entry as written: before and after already redacted and serialised (audit.service.ts). */
export interface AuditEntry {
  admin_id: string | null; action: string; target_type: string; target_id: string | null;
  before: string | null; after: string | null; ip: string;
}

/** The audit log's table, `audit_log`: entries are only added (in the transaction of the change) and searched. */
export class AuditRepository {
  /** countCap: the log's total counts at most this many entries (console-lists.repository.ts): the log only grows. */
  constructor(private readonly db: Database, private readonly countCap = LIST_COUNT_CAP) {}

  async insert(tx: Tx, entry: AuditEntry): Promise<void> {
    await tx.insertInto('audit_log').values(entry).execute();
  }

  /** A page of the entries the query matches, newest first, with the operator's e-mail and the capped total. */
  async search(query: AuditQuery, { pageSize, offset }: Paging) {
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
    return { rows, total };
  }
}
