import type { Tx } from '../../db/database.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { RotationRepository } from './rotation.repository.js';
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

type Log = { info(obj: unknown, msg: string): void; error(obj: unknown, msg: string): void };

/** The next due time after a link due at `dueAt` ran at `now`: on the cadence, but never a backlog to catch up. */
function nextDue(dueAt: Date, now: Date, intervalMinutes: number): Date {
  const step = intervalMinutes * MINUTE_MS;
  const onCadence = dueAt.getTime() + step;
  return new Date(onCadence > now.getTime() ? onCadence : now.getTime() + step);
}

// A chain that ended and restarts with the same due time (no rotation since) reuses its key: re-armed, since the
// recorded due time, not the key, says whether a link is live.
const portLink = (queue: JobQueue, q: Tx, portId: string, dueAt: Date) => queue.schedule(q, {
  kind: JOBS.portRotate, key: `${PORT_ROTATION_JOB}:${portId}:${dueAt.toISOString()}`, runAt: dueAt,
  payload: { portId, dueAt: dueAt.toISOString() },
}, { rearmDone: true });
const modemLink = (queue: JobQueue, q: Tx, modemId: string, dueAt: Date) => queue.schedule(q, {
  kind: JOBS.modemRotate, key: `${MODEM_ROTATION_JOB}:${modemId}:${dueAt.toISOString()}`, runAt: dueAt,
  payload: { modemId, dueAt: dueAt.toISOString() },
}, { rearmDone: true });

/**
 * After a dedicated port's interval changed (in the caller's transaction): records the new due time — the last
 * rotation plus the interval, or now plus the interval — and schedules its link; 0 stops the chain. The pending
 * link of the old interval no longer matches and does nothing.
 */
export async function reschedulePortRotation(
  queue: JobQueue, repo: RotationRepository, tx: Tx, portId: string, now = new Date(),
): Promise<void> {
  const port = await repo.lockPortInterval(tx, portId);
  if (!port || port.is_shared) return;
  if (port.rotation_interval <= 0) {
    await repo.setPortDue(tx, portId, null);
    return;
  }
  const base = port.last_rotated_at ?? now;
  const dueAt = new Date(Math.max(base.getTime() + port.rotation_interval * MINUTE_MS, now.getTime()));
  await repo.setPortDue(tx, portId, dueAt);
  await portLink(queue, tx, portId, dueAt);
}

/** Registers the two link handlers and the planner on the job queue. */
export function registerIntervalRotation(queue: JobQueue, deps: { repo: RotationRepository; rotation: RotationService; log: Log }): void {
  const { repo, rotation, log } = deps;

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
    const port = await repo.lockPortChain(tx, p.portId);
    if (!port || port.rotation_due_at?.toISOString() !== p.dueAt) return; // superseded
    if (port.status !== 'active' || port.expires_at.getTime() <= now.getTime() || port.rotation_interval <= 0 || port.is_shared) {
      // The chain ends; a renewal (or a new interval) starts it again through the planner or the settings.
      await repo.setPortDue(tx, port.id, null);
      return;
    }
    const next = nextDue(port.rotation_due_at, now, port.rotation_interval);
    await repo.setPortDue(tx, port.id, next);
    await portLink(queue, tx, port.id, next);
    return afterRotation({ portId: port.id }, () => rotation.rotatePortOnSchedule(port.id));
  });

  queue.handle(JOBS.modemRotate, async (tx, p, now) => {
    const modem = await repo.lockModemChain(tx, p.modemId);
    if (!modem || modem.rotation_due_at?.toISOString() !== p.dueAt) return;
    const customers = await repo.modemHasCustomers(tx, modem.id, now);
    if (!customers || !modem.is_shared || !modem.rotation_interval || modem.rotation_interval <= 0) {
      await repo.setModemDue(tx, modem.id, null);
      return;
    }
    const next = nextDue(modem.rotation_due_at, now, modem.rotation_interval);
    await repo.setModemDue(tx, modem.id, next);
    await modemLink(queue, tx, modem.id, next);
    return afterRotation({ modemId: modem.id }, () => rotation.rotateModemOnSchedule(modem.id));
  });

  queue.plan((now) => planChains(repo, queue, now));
}

/**
 * Starts the chains that should run and do not. The first due time is the last rotation (or the purchase) plus
 * the interval; if that has passed, the link is due at once. The conditional update makes two instances planning
 * at once record one due time, and the job key makes them schedule one link.
 */
async function planChains(repo: RotationRepository, queue: JobQueue, now: Date): Promise<void> {
  const ports = await repo.portsWithoutChain(now, PLAN_BATCH);
  for (const port of ports) {
    const base = port.last_rotated_at ?? port.created_at;
    const dueAt = new Date(base.getTime() + port.rotation_interval * MINUTE_MS);
    await repo.transaction(async (tx) => {
      if (await repo.startPortChain(tx, port.id, dueAt)) await portLink(queue, tx, port.id, dueAt);
    });
  }

  const modems = await repo.modemsWithoutChain(now, PLAN_BATCH);
  for (const modem of modems) {
    // A shared modem with no rotation yet starts its cadence with its first customer's planning.
    const base = modem.last_rotated_at ?? now;
    const dueAt = new Date(base.getTime() + modem.rotation_interval! * MINUTE_MS);
    await repo.transaction(async (tx) => {
      if (await repo.startModemChain(tx, modem.id, dueAt)) await modemLink(queue, tx, modem.id, dueAt);
    });
  }
}
