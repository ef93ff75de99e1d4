import { hash } from '@node-rs/argon2';
import type { AdminUser, CreateAdminResponse } from '@cellport/shared/schemas/admin/admins';
import { loginSchema } from '@cellport/shared/schemas/auth';
import { AppError } from '../../lib/app-error.js';
import type { Bus } from '../../lib/bus.js';
import { TOPICS } from '../../lib/bus-topics.js';
import type { AuditActor, AuditLog } from '../audit/index.js';
import { generatePassword } from './generated-password.js';
import type { OperatorRow, OperatorsRepository } from './operators.repository.js';

const toAdmin = (r: OperatorRow): AdminUser => ({
  id: r.id, email: r.email, name: r.name, isActive: r.is_active, uses2fa: r.totp_secret !== null, createdAt: r.created_at.toISOString(),
});

/** Who may promote: an operator in the console, or the command line (`npm run admin -- create`: no admin, ip 'cli'). */
export type OperatorsActor = AuditActor | { adminId: null; ip: string };

/**
 * The console's operators (issue 29: the console and the CLI call this one operation, audited once): promote an
 * account or create a verified admin account with a generated password, demote — never yourself, never the last.
 */
export class OperatorsService {
  constructor(private readonly repo: OperatorsRepository, private readonly bus: Bus, private readonly audit: AuditLog) {}

  /** Sessions cache the role for a minute: drop this user's cached sessions on every instance so a role change applies at once. */
  private async forgetCachedSessions(userId: string): Promise<void> {
    await this.bus.publish(TOPICS.sessionRevoked, { ids: [], userId });
  }

  async list(): Promise<AdminUser[]> {
    return (await this.repo.list()).map(toAdmin);
  }

  /** `password` is set only when a new account was made: shown once, never stored in clear. */
  async create(actor: OperatorsActor, rawEmail: string, name?: string): Promise<CreateAdminResponse> {
    const email = rawEmail.trim().toLowerCase();
    // The sign-in form's own rule (an operator must be able to sign in with it), linear on any input (issue 26).
    if (!loginSchema.safeParse(email).success) throw new AppError('VALIDATION', 400, `"${rawEmail}" is not an e-mail address.`);
    const result = await this.repo.transaction(async (tx) => {
      const before = await this.repo.byEmail(tx, email);
      let password: string | null = null;
      let after: OperatorRow;
      if (before) {
        await this.repo.promote(tx, before.id);
        after = { ...before, role: 'admin' };
      } else {
        password = generatePassword();
        after = await this.repo.insertAdmin(tx, { email, name: name ?? 'Administrator', passwordHash: await hash(password) });
      }
      const created = password !== null;
      const admin = toAdmin(after);
      await this.audit.record(tx, actor, {
        action: created ? 'admin.create' : 'admin.promote', targetType: 'user', targetId: after.id,
        before: before ? { email: before.email, role: before.role } : null,
        after: { email: admin.email, role: 'admin', name: admin.name, created },
      });
      return { admin, created, password };
    });
    await this.forgetCachedSessions(result.admin.id);
    return result;
  }

  /** Demotes an admin to customer. Locks every admin row so two operators cannot demote the last two at once. */
  async demote(actor: AuditActor, userId: string): Promise<void> {
    if (userId === actor.adminId) throw new AppError('ADMIN_SELF_DEMOTE');
    await this.repo.transaction(async (tx) => {
      const admins = await this.repo.lockAdmins(tx);
      const target = admins.find((a) => a.id === userId);
      if (!target) throw new AppError(await this.repo.accountExists(tx, userId) ? 'ADMIN_NOT_ADMIN' : 'NOT_FOUND');
      if (admins.length <= 1) throw new AppError('ADMIN_LAST');
      await this.repo.demote(tx, userId);
      await this.audit.record(tx, actor, {
        action: 'admin.demote', targetType: 'user', targetId: userId,
        before: { email: target.email, role: 'admin' }, after: { email: target.email, role: 'customer' },
      });
    });
    await this.forgetCachedSessions(userId);
  }
}
