// The backup's own statements (decision 032): a CHECKPOINT on the connection it holds while PGlite dumps its data
// directory, and the counts of what a restored backup holds. Neither belongs to one domain: they read the database as
// a whole, on a handle of its own (a restore's staging copy, where no service is composed).
import { sql } from 'kysely';
import type { Database } from '../db/database.js';

/** What a backup holds, counted after a restore (and shown to the operator). */
export interface BackupContents { customers: number; ports: number; ledgerEntries: number; invoices: number }

/**
 * Runs `dump` holding the database's only connection, after writing every change to the data files (CHECKPOINT):
 * no transaction is half done in what it dumps.
 */
export function checkpointed<T>(db: Database, dump: () => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    await sql`checkpoint`.execute(connection);
    return dump();
  });
}

export async function countContents(db: Database): Promise<BackupContents> {
  const count = async (table: 'ports' | 'ledger_entries' | 'invoices') =>
    Number((await db.selectFrom(table).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
  const customers = await db.selectFrom('users').select(sql<string>`count(*)`.as('n')).where('role', '=', 'customer').executeTakeFirstOrThrow();
  return { customers: Number(customers.n), ports: await count('ports'), ledgerEntries: await count('ledger_entries'), invoices: await count('invoices') };
}
