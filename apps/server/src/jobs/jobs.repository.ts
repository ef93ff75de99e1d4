// The statements of the job queue (jobs/queue.ts): the `jobs` table is the queue's alone. Each runs in the
// transaction or on the handle the queue passes.
import { sql } from 'kysely';
import type { Database, Tx } from '../db/database.js';

/** A job row to insert: its kind's name, unique key, due time and payload already checked by the kind's schema. */
export interface JobRow { kind: string; key: string; run_at: Date; payload: string }

/** The insert of `rows`, unexecuted (a caller may put it in a statement of its own as a CTE); a known key is skipped. */
export function insertJobs(q: Database | Tx, rows: JobRow[]) {
  return q.insertInto('jobs').values(rows).onConflict((oc) => oc.column('key').doNothing());
}

/**
 * Makes the done jobs among `rows` (by key) due again with the row's time and payload. An UPDATE, not the insert's
 * ON CONFLICT DO UPDATE … WHERE done: that form locks every conflicting row until the planner's transaction ends,
 * done or not, and another runner's claim (SKIP LOCKED) then passed over a due job it should have run — with two
 * runners at once, a round could end with the job run by neither. This locks only the rows it re-arms (a row
 * another runner has claimed is still not done in this statement's snapshot, and is left alone), and the planner's
 * own round, which claims after it commits, runs them.
 */
export async function rearmDoneJobs(q: Database | Tx, rows: JobRow[]): Promise<void> {
  await sql`update jobs set run_at = v.run_at, payload = v.payload, done_at = null, attempts = 0, last_error = null
    from unnest(${rows.map((r) => r.key)}::text[], ${rows.map((r) => r.run_at.toISOString())}::timestamptz[],
      ${rows.map((r) => r.payload)}::jsonb[]) as v(key, run_at, payload)
    where jobs.key = v.key and jobs.done_at is not null`.execute(q);
}

/** The transaction a job runs in: its claim, its handler's work and its completion commit together. */
export function inJobTransaction<T>(db: Database, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction().execute(work);
}

/**
 * Claims the next job due at `now` that this round has not seen fail (`skip`), oldest first: its row stays locked
 * for the transaction, and another instance's claim skips it (FOR UPDATE SKIP LOCKED).
 */
export function claimDueJob(tx: Tx, now: Date, skip: Set<string>) {
  let q = tx.selectFrom('jobs').select(['id', 'kind', 'payload', 'attempts'])
    .where('done_at', 'is', null).where('run_at', '<=', now);
  if (skip.size) q = q.where('id', 'not in', [...skip]);
  return q.orderBy('run_at').orderBy('id').limit(1).forUpdate().skipLocked().executeTakeFirst();
}

/** Marks a claimed job done in its transaction, with the process that ran it (`done_by`). */
export async function markJobDone(tx: Tx, id: string, attempts: number, doneBy: string | null): Promise<void> {
  await tx.updateTable('jobs').set({ done_at: sql`now()`, done_by: doneBy, attempts, last_error: null })
    .where('id', '=', id).execute();
}

/** Records a failed run outside its rolled-back transaction: the attempt, the error, and when to try again. */
export async function recordJobFailure(db: Database, id: string, failure: { attempts: number; error: string; retryAt: Date }): Promise<void> {
  await db.updateTable('jobs')
    .set({ attempts: failure.attempts, last_error: failure.error, run_at: failure.retryAt })
    .where('id', '=', id).execute();
}
