// The statements of the polled versions (docs/decisions/012-realtime.md): the `poll_versions` table is theirs alone.
// lib/poll-versions.ts builds the payloads and keeps the versions in memory; these run in the caller's transaction.
import { sql } from 'kysely';
import { keptInsert } from '../db/compiled-once.js';
import type { Database, Tx } from '../db/database.js';

/** The channel every bump is announced on. */
export const POLL_CHANNEL = 'cellport_poll';

/** Bumps a customer's version of a polled kind (1 the first time), returning the new one: a CTE to name 'bumped'. */
export function upsertPollVersion(db: Tx | Database, kind: string, userId: string) {
  return db.insertInto('poll_versions').values(pollVersionRow(kind, userId))
    .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet({ version: sql`poll_versions.version + 1` }))
    .returning('version');
}

/** The same, as a part of a bigger statement, its text kept (`keptInsert`). */
export function keptPollVersionUpsert(db: Tx | Database, kind: string, userId: string) {
  return keptInsert('poll_versions', [pollVersionRow(kind, userId)], () => upsertPollVersion(db, kind, userId));
}

/** A customer's first version of a kind: what the upsert inserts, or bumps when the row is there. */
const pollVersionRow = (kind: string, userId: string) => ({ user_id: userId, kind, version: 1n });

/** Selected from 'bumped': the NOTIFY of `payload`, into which the database sets the new version. */
export function notifyBumped(payload: string) {
  return sql<string>`pg_notify(${POLL_CHANNEL}, jsonb_set(${payload}::jsonb, '{version}', to_jsonb(bumped.version))::text)`;
}

/** Bumps and announces in one statement, in the caller's transaction; returns the new version. */
export async function bumpAndNotify(tx: Tx | Database, kind: string, userId: string, payload: string): Promise<number> {
  const row = await tx.with('bumped', () => upsertPollVersion(tx, kind, userId)).selectFrom('bumped')
    .select(['bumped.version', notifyBumped(payload).as('notified')]).executeTakeFirstOrThrow();
  return Number(row.version);
}

/** The committed version of a customer's kind, 0 when it was never bumped. */
export async function committedPollVersion(db: Database, kind: string, userId: string): Promise<number> {
  const row = await db.selectFrom('poll_versions').select('version')
    .where('user_id', '=', userId).where('kind', '=', kind).executeTakeFirst();
  return Number(row?.version ?? 0);
}
