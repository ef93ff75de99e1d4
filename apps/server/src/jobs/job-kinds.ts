import { z } from 'zod';

/**
 * Every kind of durable job (jobs/queue.ts), declared once with its payload's schema (issue 29, item 2): scheduling
 * checks the payload, and the queue parses a row's payload before its handler sees it, so a handler reads typed
 * fields instead of `String(payload.portId)`. One naming style: `<domain>.<verb>` in lower case, words joined by
 * `_` (port.remind, support.sweep_uploads). A kind is a row's `jobs.kind`: renaming one needs a migration for the
 * rows already scheduled (2026_12_11_0800_job_kind_names renamed crypto-watch and crypto-expire).
 */
export interface JobKind<N extends string = string, S extends z.ZodType = z.ZodType> {
  readonly name: N;
  readonly payload: S;
}

/** A kind outside the catalogue below is for tests only (a queue's own behaviour); production kinds live in JOBS. */
export const defineJob = <N extends string, S extends z.ZodType>(name: N, payload: S): JobKind<N, S> => ({ name, payload });

/** A port's term, as it was when the job was scheduled: a renewal changes expiresAt and the old jobs do nothing. */
const term = z.object({ portId: z.string(), expiresAt: z.string() });
/** One link of an interval-rotation chain; superseded when the row's due time is no longer `dueAt`. */
const link = z.object({ dueAt: z.string() });

export const JOBS = {
  /** A reminder 3 days or 1 day before a port expires (`days`), unless it renews itself. */
  portRemind: defineJob('port.remind', term.extend({ days: z.number().int().optional() })),
  /** Renews a port from the balance 24 h before it expires, when the customer asked for it. */
  portAutorenew: defineJob('port.autorenew', term),
  /** Stops a port at its expiry. */
  portExpire: defineJob('port.expire', term),
  /** Returns an expired port's modem to stock after the grace period. */
  portRelease: defineJob('port.release', term),
  /** Replaces the modem of a port whose modem stayed down (replacement.service.ts). */
  portReplace: defineJob('port.replace', z.object({ portId: z.string() })),
  /** A dedicated port's next scheduled rotation. */
  portRotate: defineJob('port.rotate', link.extend({ portId: z.string() })),
  /** A shared modem's next scheduled rotation. */
  modemRotate: defineJob('modem.rotate', link.extend({ modemId: z.string() })),
  /** Deletes support uploads no message references (planned only while there are some). */
  supportSweepUploads: defineJob('support.sweep_uploads', z.object({})),
  /** Looks at the chain for a pending crypto order's deposit, every 30 s (`n`: the how-manieth look). */
  cryptoWatch: defineJob('crypto.watch', z.object({ orderId: z.string(), n: z.number().int().optional() })),
  /** Expires a pending crypto order after its last look at the chain. */
  cryptoExpire: defineJob('crypto.expire', z.object({ orderId: z.string() })),
  /** A few days before a card subscription's charge, the customer is told what will be charged (subscription-jobs.ts). */
  subscriptionRemind: defineJob('subscription.remind', z.object({ subscriptionId: z.string(), chargeAt: z.string() })),
  /** In the card sandbox, what Stripe does on its own schedule when a period ends or a retry is due. */
  subscriptionSandboxDue: defineJob('subscription.sandbox_due', z.object({ subscriptionId: z.string(), dueAt: z.string() })),
  /**
   * Kept so rows of the old per-delivery webhook jobs still finish (the delivery worker sends webhooks now,
   * webhooks.service.ts); nothing schedules it.
   */
  webhookDeliver: defineJob('webhook.deliver', z.object({}).passthrough()),
} as const;

export type DeclaredJob = (typeof JOBS)[keyof typeof JOBS];
export type JobName = DeclaredJob['name'];
/** A job kind: declared in JOBS (or, in a test, by defineJob), or the name of a declared one. */
export type JobRef = JobKind | JobName;
type KindOf<R extends JobRef> = R extends JobKind ? R : Extract<DeclaredJob, { name: R }>;
export type JobPayload<R extends JobRef> = z.output<KindOf<R>['payload']>;
export type JobInput<R extends JobRef> = z.input<KindOf<R>['payload']>;

const byName = new Map<string, JobKind>(Object.values(JOBS).map((j) => [j.name, j]));

/** The kind a reference names; a name outside JOBS is refused (a typo must not schedule a job nothing runs). */
export function jobKindOf(ref: JobRef): JobKind {
  if (typeof ref !== 'string') return ref;
  const kind = byName.get(ref);
  if (!kind) throw new Error(`undeclared job kind ${ref}: declare it in jobs/job-kinds.ts`);
  return kind;
}
