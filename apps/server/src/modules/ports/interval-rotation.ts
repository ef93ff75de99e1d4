import type { Database, Tx } from '../../db/database.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { RotationService } from './rotation.service.js';
import { JOBS } from '../../jobs/job-kinds.js';

/**
 * Automatic IP rotation by interval, as a chain of durable jobs: one job per due rotation (one port, or one
 * shared modem), which moves the recorded due time on, schedules the next link and then rotates through the
 * RotationService (cooldown, same-IP retries, bus events and failure notifications as for a click).
 *
 * `ports.rotation_due_at` / `modems.rotation_due_at` hold the due time of the one live link. A job whose due time
 * is no longer the recorded one was superseded (the interval changed) and does nothing; null means no chain runs
 * (interval 0, expired, no customers left). A planner run before every batch starts chains that should run and do
 * not — new purchases, renewals after expiry, ports from before this feature — so no other module has to know.
 */
/** The job kinds of the two chains (jobs/job-kinds.ts). */
export const PORT_ROTATION_JOB = JOBS.portRotate.name;
export const MODEM_ROTATION_JOB = JOBS.modemRotate.name;
const MINUTE_MS = 60_000;
const PLAN_BATCH = 200;

type Executor = Database | Tx;
type Log = { info(obj: unknown, msg: string): void; error(obj: unknown, msg: string): void };

/** The next due time after a link due at `dueAt` ran at `now`: on the cadence, but never a backlog to catch up. */
function nextDue(dueAt: Date, now: Date, intervalMinutes: number): Date {
  const step = intervalMinutes * MINUTE_MS;
  const onCadence = dueAt.getTime() + step;
  return new Date(onCadence > now.getTime() ? onCadence : now.getTime() + step);
}

// A chain that ended and restarts with the same due time (no rotation since) reuses its key: re-armed, since the
// recorded due time, not the key, says whether a link is live.
const portLink = (queue: JobQueue, q: Executor, portId: string, dueAt: Date) => queue.schedule(q, {
  kind: JOBS.portRotate, key: `${PORT_ROTATION_JOB}:${portId}:${dueAt.toISOString()}`, runAt: dueAt,
  payload: { portId, dueAt: dueAt.toISOString() },
}, { rearmDone: true });
const modemLink = (queue: JobQueue, q: Executor, modemId: string, dueAt: Date) => queue.schedule(q, {
  kind: JOBS.modemRotate, key: `${MODEM_ROTATION_JOB}:${modemId}:${dueAt.toISOString()}`, runAt: dueAt,
  payload: { modemId, dueAt: dueAt.toISOString() },
}, { rearmDone: true });

/**
 * After a dedicated port's interval changed (in the caller's transaction): records the new due time — the last
 * rotation plus the interval, or now plus the interval — and schedules its link; 0 stops the chain. The pending
 * link of the old interval no longer matches and does nothing.
 */
export async function reschedulePortRotation(queue: JobQueue, tx: Tx, portId: string, now = new Date()): Promise<void> {
  const port = await tx.selectFrom('ports').select(['rotation_interval', 'last_rotated_at', 'is_shared'])
    .where('id', '=', portId).forUpdate().executeTakeFirst();
  if (!port || port.is_shared) return;
  if (port.rotation_interval <= 0) {
    await tx.updateTable('ports').set({ rotation_due_at: null }).where('id', '=', portId).execute();
    return;
  }
  const base = port.last_rotated_at ?? now;
  const dueAt = new Date(Math.max(base.getTime() + port.rotation_interval * MINUTE_MS, now.getTime()));
  await tx.updateTable('ports').set({ rotation_due_at: dueAt }).where('id', '=', portId).execute();
  await portLink(queue, tx, portId, dueAt);
}

/** Registers the two link handlers and the planner on the job queue. */
export function registerIntervalRotation(queue: JobQueue, deps: { db: Database; rotation: RotationService; log: Log }): void {
  const { db, rotation, log } = deps;

  const afterRotation = (what: Record<string, string>, work: () => Promise<unknown>) => async () => {
    try {
      const result = await work();
      log.info({ ...what, result }, 'scheduled rotation done');
    } catch (err) {
      // Too soon, offline or failed: the next link is already scheduled; the service has notified on a failure.
      log.info({ ...what, err }, 'scheduled rotation skipped or failed');
    }
  };

  queue.handle(JOBS.portRotate, async (tx, p, now) => {
    const port = await tx.selectFrom('ports')
      .select(['id', 'status', 'expires_at', 'rotation_interval', 'rotation_due_at', 'is_shared'])
      .where('id', '=', p.portId).forUpdate().executeTakeFirst();
    if (!port || port.rotation_due_at?.toISOString() !== p.dueAt) return; // superseded
    if (port.status !== 'active' || port.expires_at.getTime() <= now.getTime() || port.rotation_interval <= 0 || port.is_shared) {
      // The chain ends; a renewal (or a new interval) starts it again through the planner or the settings.
      await tx.updateTable('ports').set({ rotation_due_at: null }).where('id', '=', port.id).execute();
      return;
    }
    const next = nextDue(port.rotation_due_at, now, port.rotation_interval);
    await tx.updateTable('ports').set({ rotation_due_at: next }).where('id', '=', port.id).execute();
    await portLink(queue, tx, port.id, next);
    return afterRotation({ portId: port.id }, () => rotation.rotatePortOnSchedule(port.id));
  });

  queue.handle(JOBS.modemRotate, async (tx, p, now) => {
    const modem = await tx.selectFrom('modems').select(['id', 'rotation_interval', 'rotation_due_at', 'is_shared'])
      .where('id', '=', p.modemId).forUpdate().executeTakeFirst();
    if (!modem || modem.rotation_due_at?.toISOString() !== p.dueAt) return;
    const customers = await tx.selectFrom('ports').select('id').where('modem_id', '=', modem.id)
      .where('status', '=', 'active').where('expires_at', '>', now).limit(1).executeTakeFirst();
    if (!customers || !modem.is_shared || !modem.rotation_interval || modem.rotation_interval <= 0) {
      await tx.updateTable('modems').set({ rotation_due_at: null }).where('id', '=', modem.id).execute();
      return;
    }
    const next = nextDue(modem.rotation_due_at, now, modem.rotation_interval);
    await tx.updateTable('modems').set({ rotation_due_at: next }).where('id', '=', modem.id).execute();
    await modemLink(queue, tx, modem.id, next);
    return afterRotation({ modemId: modem.id }, () => rotation.rotateModemOnSchedule(modem.id));
  });

  queue.plan((now) => planChains(db, queue, now));
}

/**
 * Starts the chains that should run and do not. The first due time is the last rotation (or the purchase) plus
 * the interval; if that has passed, the link is due at once. The conditional update makes two instances planning
 * at once record one due time, and the job key makes them schedule one link.
 */
async function planChains(db: Database, queue: JobQueue, now: Date): Promise<void> {
  const ports = await db.selectFrom('ports')
    .select(['id', 'rotation_interval', 'last_rotated_at', 'created_at'])
    .where('rotation_due_at', 'is', null).where('rotation_interval', '>', 0).where('status', '=', 'active')
    .where('is_shared', '=', false).where('expires_at', '>', now)
    .limit(PLAN_BATCH).execute();
  for (const port of ports) {
    const base = port.last_rotated_at ?? port.created_at;
    const dueAt = new Date(base.getTime() + port.rotation_interval * MINUTE_MS);
    await db.transaction().execute(async (tx) => {
      const set = await tx.updateTable('ports').set({ rotation_due_at: dueAt })
        .where('id', '=', port.id).where('rotation_due_at', 'is', null).returning('id').executeTakeFirst();
      if (set) await portLink(queue, tx, port.id, dueAt);
    });
  }

  const modems = await db.selectFrom('modems').select(['id', 'rotation_interval', 'last_rotated_at'])
    .where('rotation_due_at', 'is', null).where('rotation_interval', '>', 0).where('is_shared', '=', true)
    .where((eb) => eb.exists(eb.selectFrom('ports').select('ports.id').whereRef('ports.modem_id', '=', 'modems.id')
      .where('ports.status', '=', 'active').where('ports.expires_at', '>', now)))
    .limit(PLAN_BATCH).execute();
  for (const modem of modems) {
    // A shared modem with no rotation yet starts its cadence with its first customer's planning.
    const base = modem.last_rotated_at ?? now;
    const dueAt = new Date(base.getTime() + modem.rotation_interval! * MINUTE_MS);
    await db.transaction().execute(async (tx) => {
      const set = await tx.updateTable('modems').set({ rotation_due_at: dueAt })
        .where('id', '=', modem.id).where('rotation_due_at', 'is', null).returning('id').executeTakeFirst();
      if (set) await modemLink(queue, tx, modem.id, dueAt);
    });
  }
}
