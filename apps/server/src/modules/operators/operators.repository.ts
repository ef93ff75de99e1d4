import { sql } from 'kysely';
import type { Database, Tx } from '../../db/database.js';

type Q = Database | Tx;
const columns = ['id', 'email', 'name', 'is_active', 'totp_secret', 'created_at', 'role'] as const;

/** An account as the operators' list shows it. */
export interface OperatorRow {
  id: string; email: string; name: string; is_active: boolean; totp_secret: string | null; created_at: Date; role: 'customer' | 'admin';
}

/** The operators: accounts with the role `admin` in `users`. */
export class OperatorsRepository {
  constructor(private readonly db: Database) {}

  /** One transaction for the service's steps: it hands the Tx on to the audit log. */
  async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async list(): Promise<OperatorRow[]> {
    return this.db.selectFrom('users').select(columns).where('role', '=', 'admin').orderBy('email').execute();
  }

  /** The account with this e-mail (given lower-cased), whatever its role. */
  async byEmail(q: Q, email: string): Promise<OperatorRow | undefined> {
    return q.selectFrom('users').select(columns).where(sql<string>`lower(email)`, '=', email).executeTakeFirst();
  }

  async promote(tx: Tx, id: string): Promise<void> {
    await tx.updateTable('users').set({ role: 'admin', updated_at: new Date() }).where('id', '=', id).execute();
  }

  /** A new admin account, verified (no e-mail check: an operator made it). */
  async insertAdmin(tx: Tx, account: { email: string; name: string; passwordHash: string }): Promise<OperatorRow> {
    return tx.insertInto('users').values({
      email: account.email, name: account.name, password_hash: account.passwordHash, role: 'admin', is_active: true, is_verified: true,
    }).returning(columns).executeTakeFirstOrThrow();
  }

  /** Every admin, locked, so two operators cannot demote the last two at once. */
  async lockAdmins(tx: Tx): Promise<{ id: string; email: string }[]> {
    return tx.selectFrom('users').select(['id', 'email']).where('role', '=', 'admin').orderBy('id').forUpdate().execute();
  }

  async accountExists(tx: Tx, id: string): Promise<boolean> {
    return (await tx.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  async demote(tx: Tx, id: string): Promise<void> {
    await tx.updateTable('users').set({ role: 'customer', updated_at: new Date() }).where('id', '=', id).execute();
  }
}
