import { sql } from 'kysely';
import type { AdminUser, CreateAdminResponse } from '@cellport/shared/schemas/admin/admins';
import { makeAdmin } from '../../../cli/admin-commands.js';
import type { Database } from '../../../db/database.js';
import type { Bus } from '../../../lib/bus.js';
import { AppError } from '../../../lib/app-error.js';
import type { AuditActor, AuditLog } from '../audit/audit.service.js';
import { TOPICS } from '../../../lib/bus-topics.js';

interface AdminRow { id: string; email: string; name: string; is_active: boolean; totp_secret: string | null; created_at: Date }
const toAdmin = (r: AdminRow): AdminUser => ({
  id: r.id, email: r.email, name: r.name, isActive: r.is_active, uses2fa: r.totp_secret !== null, createdAt: r.created_at.toISOString(),
});
const columns = ['id', 'email', 'name', 'is_active', 'totp_secret', 'created_at', 'role'] as const;

/** Admins: promote or create (same rules as `npm run admin -- create`), demote — never yourself, never the last. */
export class AdminsService {
  constructor(private readonly db: Database, private readonly bus: Bus, private readonly audit: AuditLog) {}

  /** Sessions cache the role for a minute: drop this user's cached sessions on every instance so a role change applies at once. */
  private async forgetCachedSessions(userId: string): Promise<void> {
    await this.bus.publish(TOPICS.sessionRevoked, { ids: [], userId });
  }

  async list(): Promise<AdminUser[]> {
    const rows = await this.db.selectFrom('users').select(columns).where('role', '=', 'admin').orderBy('email').execute();
    return rows.map(toAdmin);
  }

  async create(actor: AuditActor, email: string, name?: string): Promise<CreateAdminResponse> {
    const result = await this.db.transaction().execute(async (tx) => {
      const before = await tx.selectFrom('users').select(columns).where(sql<string>`lower(email)`, '=', email.trim().toLowerCase())
        .executeTakeFirst();
      const result = await makeAdmin(tx, email);
      const after = await tx.selectFrom('users').select(columns).where(sql<string>`lower(email)`, '=', result.email)
        .executeTakeFirstOrThrow();
      if (result.created && name) await tx.updateTable('users').set({ name }).where('id', '=', after.id).execute();
      const admin = toAdmin({ ...after, name: result.created && name ? name : after.name });
      await this.audit.record(tx, actor, {
        action: result.created ? 'admin.create' : 'admin.promote', targetType: 'user', targetId: after.id,
        before: before ? { email: before.email, role: before.role } : null,
        after: { email: admin.email, role: 'admin', name: admin.name, created: result.created },
      });
      return { admin, created: result.created, password: result.created ? result.password : null };
    });
    await this.forgetCachedSessions(result.admin.id);
    return result;
  }

  /** Demotes an admin to customer. Locks every admin row so two operators cannot demote the last two at once. */
  async demote(actor: AuditActor, userId: string): Promise<void> {
    if (userId === actor.adminId) throw new AppError('ADMIN_SELF_DEMOTE');
    await this.db.transaction().execute(async (tx) => {
      const admins = await tx.selectFrom('users').select(['id', 'email']).where('role', '=', 'admin').orderBy('id').forUpdate().execute();
      const target = admins.find((a) => a.id === userId);
      if (!target) {
        const exists = await tx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
        throw exists ? new AppError('ADMIN_NOT_ADMIN') : new AppError('NOT_FOUND');
      }
      if (admins.length <= 1) throw new AppError('ADMIN_LAST');
      await tx.updateTable('users').set({ role: 'customer', updated_at: new Date() }).where('id', '=', userId).execute();
      await this.audit.record(tx, actor, {
        action: 'admin.demote', targetType: 'user', targetId: userId,
        before: { email: target.email, role: 'admin' }, after: { email: target.email, role: 'customer' },
      });
    });
    await this.forgetCachedSessions(userId);
  }
}
