import { keptInsert } from '../db/compiled-once.js';
import type { Database, Tx } from '../db/database.js';
import type { z } from 'zod';
import { jobKindOf, type DeclaredJob, type JobInput, type JobKind, type JobPayload, type JobRef } from './job-kinds.js';
import { claimDueJob, inJobTransaction, insertJobs, markJobDone, rearmDoneJobs, recordJobFailure, type JobRow } from './jobs.repository.js';

/** One job to schedule: its kind (jobs/job-kinds.ts), a unique key, when, and a payload its kind's schema accepts. */
export type ScheduledJob = DeclaredJob extends infer J ? J extends DeclaredJob
  ? { kind: J | J['name']; key: string; runAt: Date; payload: JobInput<J> }
  : never : never;
/** A job of a kind a test declared for itself (defineJob). */
export interface ScheduledTestJob<S extends z.ZodType> { kind: JobKind<string, S>; key: string; runAt: Date; payload: z.input<S> }
type AnyScheduled = ScheduledJob | ScheduledTestJob<z.ZodType>;
/**
 * Work a handler hands back to run after its transaction commits: slow outside calls (a modem rotation takes
 * seconds) must not hold the job's row lock or, on PGlite, the only connection. It runs at most once — a crash
 * after the commit skips it — and its failure is logged, not retried. The round waits for it, so it must be bounded
 * by our own systems: a call whose length an outsider decides (a customer's webhook endpoint) runs on a worker of its
 * own instead (webhooks/delivery-worker.ts), or one slow party stalls every job (issue 26).
 */
export type AfterCommit = () => Promise<void>;
export type JobHandler<P = unknown> = (tx: Tx, payload: P, now: Date) => Promise<void | AfterCommit>;
/** Runs at the start of every `runDueJobs(now)`: schedules jobs that should exist and do not (a planner). */
export type JobPlanner = (now: Date) => Promise<void>;

const MAX_BACKOFF_MS = 60 * 60_000;

/** The rows of `list`, each payload checked by its kind's schema here, where a mistake is made, not when the job runs days later. */
function jobRows(list: AnyScheduled[]): JobRow[] {
  return list.map((job) => {
    const kind = jobKindOf(job.kind as JobRef);
    return { kind: kind.name, key: job.key, run_at: job.runAt, payload: JSON.stringify(kind.payload.parse(job.payload)) };
  });
}

/**
 * Durable jobs: rows in `jobs`, scheduled once per unique key, claimed with FOR UPDATE SKIP LOCKED so several
 * instances never run the same job, and run in the same transaction that marks them done — a crash before the
 * commit leaves the job due, a commit makes its effects and its completion land together.
 */
export class JobQueue {
  private readonly handlers = new Map<string, { kind: JobKind; handler: JobHandler }>();
  private readonly planners: JobPlanner[] = [];
  private claiming = true;

  constructor(
    private readonly db: Database,
    private readonly log?: { error(obj: unknown, msg: string): void },
    /** Told of every failed run (the metrics' failure counter). */
    private readonly onFailure?: (kind: string) => void,
    /** Written into each job this queue runs (`done_by`): which process ran it (lib/instance-name.ts). */
    private readonly instance: string | null = null,
  ) {}

  /** The handler of a kind; it receives the payload as the kind's schema parsed it. */
  handle<R extends JobRef>(ref: R, handler: JobHandler<JobPayload<R>>): void {
    const kind = jobKindOf(ref);
    this.handlers.set(kind.name, { kind, handler: handler as JobHandler });
  }

  /** The kinds with a handler on this queue (the worker test and the map list them). */
  kinds(): string[] { return [...this.handlers.keys()]; }

  plan(planner: JobPlanner): void { this.planners.push(planner); }

  /**
   * Shutdown: no job is claimed from now on, on this instance. A job already running finishes; its commit (or
   * rollback) releases its row, which another instance then claims if it is still due. Jobs are claimed only when
   * they start, so no claim is left on work this instance will not do.
   */
  stopClaiming(): void { this.claiming = false; }

  /**
   * Schedules jobs (one statement) unless one with the same key exists (done or not). Pass the transaction they
   * belong to. `rearmDone` makes a done job with the key due again (a second statement) — for callers whose handler
   * checks a state of its own (a due time in the row it acts on), so the same key may legitimately come round twice.
   */
  async schedule(q: Database | Tx, jobs: ScheduledJob | ScheduledJob[], options?: { rearmDone?: boolean }): Promise<void>;
  async schedule<S extends z.ZodType>(q: Database | Tx, jobs: ScheduledTestJob<S> | ScheduledTestJob<S>[], options?: { rearmDone?: boolean }): Promise<void>;
  async schedule(q: Database | Tx, jobs: AnyScheduled | AnyScheduled[], options: { rearmDone?: boolean } = {}): Promise<void> {
    const list = Array.isArray(jobs) ? jobs : [jobs];
    if (!list.length) return;
    const rows = jobRows(list);
    await insertJobs(q, rows).execute();
    if (options.rearmDone) await rearmDoneJobs(q, rows);
  }

  /** The insert `schedule` runs (without re-arming), unexecuted: for a caller that puts it in a statement of its own as a CTE. */
  scheduleQuery(q: Database | Tx, list: AnyScheduled[]) {
    const rows = jobRows(list);
    return keptInsert('jobs', rows, () => insertJobs(q, rows));
  }

  /** Runs every job due at `now` (tests pass a future time to travel). Returns how many ran successfully. */
  async runDueJobs(now: Date = new Date(), limit = 500): Promise<number> {
    if (!this.claiming) return 0;
    for (const planner of this.planners) {
      await planner(now).catch((err: unknown) => this.log?.error({ err }, 'job planner failed'));
    }
    let done = 0;
    const failed = new Set<string>();
    // After-commit work runs alongside the next jobs (one slow modem does not hold up the queue) and is awaited
    // before returning, so a caller — the runner's next tick, a test — sees its effects.
    const afterCommit: Array<Promise<void>> = [];
    try {
      for (let i = 0; i < limit && this.claiming; i++) {
        const outcome = await this.runOne(now, failed, afterCommit);
        if (outcome === 'none') break;
        if (outcome === 'done') done++;
      }
    } finally {
      await Promise.allSettled(afterCommit);
    }
    return done;
  }

  private async runOne(now: Date, failed: Set<string>, afterCommit: Array<Promise<void>>): Promise<'none' | 'done' | 'failed'> {
    let claimed: { id: string; kind: string; attempts: number } | undefined;
    try {
      const result = await inJobTransaction(this.db, async (tx) => {
        const job = await claimDueJob(tx, now, failed);
        if (!job) return 'none' as const;
        claimed = job;
        const handling = this.handlers.get(job.kind);
        if (!handling) throw new Error(`no handler for job kind ${job.kind}`);
        const after = await handling.handler(tx, handling.kind.payload.parse(job.payload), now);
        await markJobDone(tx, job.id, job.attempts + 1, this.instance);
        return { outcome: 'done' as const, after };
      });
      if (result === 'none') return result;
      if (result.after) {
        const job = claimed!;
        afterCommit.push(result.after().catch((err: unknown) => {
          this.log?.error({ err, job: job.id, kind: job.kind }, 'job after-commit work failed');
        }));
      }
      return result.outcome;
    } catch (err) {
      if (!claimed) throw err;
      failed.add(claimed.id);
      const attempts = claimed.attempts + 1;
      const delay = Math.min(MAX_BACKOFF_MS, 30_000 * 2 ** Math.min(attempts, 10));
      this.log?.error({ err, job: claimed.id, kind: claimed.kind }, 'job failed; will retry');
      this.onFailure?.(claimed.kind);
      await recordJobFailure(this.db, claimed.id, {
        attempts, error: String((err as Error)?.message ?? err).slice(0, 1000), retryAt: new Date(now.getTime() + delay),
      });
      return 'failed';
    }
  }
}

/** Polls for due jobs every `intervalMs` until stopped. */
export function startJobRunner(queue: JobQueue, intervalMs: number, log: { error(obj: unknown, msg: string): void }): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = queue.runDueJobs().catch((err: unknown) => log.error({ err }, 'job runner failed'))
      .finally(() => { running = undefined; });
  }, intervalMs);
  timer.unref();
  return async () => { clearInterval(timer); await running; };
}
