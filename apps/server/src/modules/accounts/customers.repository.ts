import { sql } from 'kysely';
import type { CustomerSummary } from '@cellport/shared/schemas/admin/customers';
import type { Database, Tx } from '../../db/database.js';
import type { Paging } from '../../lib/console-http.js';
import { cappedTotal, containsPattern, LIST_COUNT_CAP, type ListTotal } from '../../lib/console-lists.repository.js';

const SUMMARY_COLUMNS = [
  'u.id', 'u.email', 'u.name', 'u.company_name', 'u.role', 'u.is_active', 'u.is_verified', 'u.totp_secret', 'u.created_at',
] as const;

type SummaryRow = {
  id: string; email: string; name: string; company_name: string; role: 'customer' | 'admin'; is_active: boolean;
  is_verified: boolean; totp_secret: string | null; created_at: Date; btc: string | null; usdt: string | null; ports: string | null;
};

const toSummary = (r: SummaryRow): CustomerSummary => ({
  id: r.id, email: r.email, name: r.name, companyName: r.company_name, role: r.role,
  balances: { btc: BigInt(r.btc ?? 0).toString(), usdt: BigInt(r.usdt ?? 0).toString() },
  portsCount: Number(r.ports ?? 0), isActive: r.is_active, isVerified: r.is_verified, uses2fa: r.totp_secret !== null,
  createdAt: r.created_at.toISOString(),
});

/** An account as the operator CLI lists it. */
export interface AccountListing {
  email: string;
  name: string;
  role: 'customer' | 'admin';
  isActive: boolean;
  isVerified: boolean;
  uses2fa: boolean;
  createdAt: Date;
}

/**
 * The customer queries of the console: one list query with balances and port counts, the detail lists, and the
 * steps of the operator's actions on an account, each in the transaction the service opens with `transaction`.
 */
export class CustomersRepository {
  /** countCap: the list's total counts at most this many customers (lib/console-lists.repository.ts, cappedTotal). */
  constructor(private readonly db: Database, private readonly countCap = LIST_COUNT_CAP) {}

  private summaries(q: Database | Tx) {
    return q.selectFrom('users as u')
      .select(SUMMARY_COLUMNS)
      .select((eb) => [
        eb.selectFrom('balances').select('amount').whereRef('balances.user_id', '=', 'u.id').where('coin', '=', 'btc').as('btc'),
        eb.selectFrom('balances').select('amount').whereRef('balances.user_id', '=', 'u.id').where('coin', '=', 'usdt').as('usdt'),
        eb.selectFrom('ports').select(sql<string>`count(*)`.as('n')).whereRef('ports.user_id', '=', 'u.id')
          .where('ports.status', '<>', 'released').as('ports'),
      ]);
  }

  async search(text: string | undefined, page: Paging): Promise<{ items: CustomerSummary[] } & ListTotal> {
    const like = text ? containsPattern(text.toLowerCase()) : null;
    let list = this.summaries(this.db);
    let matching = this.db.selectFrom('users as u');
    if (like) {
      list = list.where((eb) => eb.or([
        eb(sql`lower(u.email)`, 'like', like), eb(sql`lower(u.name)`, 'like', like), eb(sql`lower(u.company_name)`, 'like', like),
      ]));
      matching = matching.where((eb) => eb.or([
        eb(sql`lower(u.email)`, 'like', like), eb(sql`lower(u.name)`, 'like', like), eb(sql`lower(u.company_name)`, 'like', like),
      ]));
    }
    const [rows, total] = await Promise.all([
      list.orderBy('u.created_at', 'desc').orderBy('u.id').limit(page.pageSize).offset(page.offset).execute(),
      cappedTotal(this.db, matching, this.countCap),
    ]);
    return { items: rows.map((r) => toSummary(r as SummaryRow)), ...total };
  }

  async summary(userId: string, q: Database | Tx = this.db): Promise<CustomerSummary | undefined> {
    const row = await this.summaries(q).where('u.id', '=', userId).executeTakeFirst();
    return row ? toSummary(row as SummaryRow) : undefined;
  }

  profile(userId: string) {
    return this.db.selectFrom('users').select(['language', 'purpose', 'website_wishlist', 'marketing_consent'])
      .where('id', '=', userId).executeTakeFirst();
  }

  ledger(userId: string) {
    return this.db.selectFrom('ledger_entries').selectAll().where('user_id', '=', userId)
      .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(100).execute();
  }

  sessions(userId: string) {
    return this.db.selectFrom('sessions').selectAll().where('user_id', '=', userId).orderBy('last_seen_at', 'desc').limit(100).execute();
  }

  notifications(userId: string) {
    return this.db.selectFrom('notifications').select(['id', 'type', 'text', 'unread', 'created_at'])
      .where('user_id', '=', userId).orderBy('created_at', 'desc').limit(100).execute();
  }

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** The account's e-mail and state, its row locked for the rest of the transaction (one operator's action at a time). */
  lockAccount(tx: Tx, userId: string) {
    return tx.selectFrom('users').select(['id', 'email', 'is_active', 'totp_secret']).where('id', '=', userId).forUpdate().executeTakeFirst();
  }

  findAccount(userId: string, q: Database | Tx = this.db) {
    return q.selectFrom('users').select(['id', 'email', 'language', 'is_verified']).where('id', '=', userId).executeTakeFirst();
  }

  async setActive(tx: Tx, userId: string, active: boolean): Promise<void> {
    await tx.updateTable('users').set({ is_active: active, updated_at: new Date() }).where('id', '=', userId).execute();
  }

  /** Ends every session of the account in the database (the service then drops them from every instance's cache). */
  async deleteSessions(tx: Tx, userId: string): Promise<void> {
    await tx.deleteFrom('sessions').where('user_id', '=', userId).execute();
  }

  async clearTwoFactor(tx: Tx, userId: string): Promise<void> {
    await tx.updateTable('users').set({ totp_secret: null, totp_pending_secret: null, totp_last_step: null, updated_at: new Date() })
      .where('id', '=', userId).execute();
  }

  /** The account with this e-mail, compared as the sign-in compares it (lower case); the operator CLI names accounts so. */
  findByEmail(email: string) {
    return this.db.selectFrom('users').select(['id', 'email']).where(sql<string>`lower(email)`, '=', email.toLowerCase()).executeTakeFirst();
  }

  /** How many sessions the account has open (the CLI says how many a deactivation ended). */
  async sessionCount(userId: string): Promise<number> {
    const row = await this.db.selectFrom('sessions').select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Every account, admins first, then by e-mail: the operator CLI's list. */
  async everyAccount(): Promise<AccountListing[]> {
    const rows = await this.db.selectFrom('users')
      .select(['email', 'name', 'role', 'is_active', 'is_verified', 'totp_secret', 'created_at'])
      .orderBy(sql`role = 'admin'`, 'desc')
      .orderBy('email')
      .execute();
    return rows.map((r) => ({
      email: r.email, name: r.name, role: r.role, isActive: r.is_active, isVerified: r.is_verified,
      uses2fa: r.totp_secret !== null, createdAt: r.created_at,
    }));
  }

  /** The ledger entry booked under a reference in this transaction (the console shows the adjustment it made). */
  ledgerEntry(tx: Tx, reference: string) {
    return tx.selectFrom('ledger_entries').selectAll().where('reference', '=', reference).executeTakeFirstOrThrow();
  }
}
