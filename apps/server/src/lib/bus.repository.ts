// The bus's one statement (decision 012): a NOTIFY on its channel, heard by every instance on the same PostgreSQL.
import { sql } from 'kysely';
import type { Database } from '../db/database.js';

/** The channel the bus's messages travel on between instances. */
export const BUS_CHANNEL = 'cellport_bus';

/** Sends one encoded message to every instance listening (delivered when the statement's transaction commits). */
export async function notifyInstances(db: Database, payload: string): Promise<void> {
  await sql`select pg_notify(${BUS_CHANNEL}, ${payload})`.execute(db);
}
