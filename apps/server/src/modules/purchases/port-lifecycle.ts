import type { JobQueue, ScheduledJob } from '../../jobs/queue.js';
import type { Tx } from '../../db/database.js';
import { JOBS } from '../../jobs/job-kinds.js';

const DAY_MS = 86_400_000;
export const AUTO_RENEW_BEFORE_MS = DAY_MS;

/**
 * The jobs of port terms, in one statement. Keys carry the expiry, so a renewal (a new expiry) schedules a fresh
 * set and the old set finds the expiry changed and does nothing.
 */
export async function schedulePortLifecycle(jobs: JobQueue, tx: Tx, ports: Array<{ id: string; expiresAt: Date }>, graceDays: number): Promise<void> {
  await jobs.schedule(tx, ports.flatMap((port) => termJobs(port, graceDays)));
}

/** The jobs of one port term: two reminders, the auto-renewal, the expiry and the release after the grace period. */
export function termJobs(port: { id: string; expiresAt: Date }, graceDays: number): ScheduledJob[] {
  const exp = port.expiresAt.getTime();
  const term = port.expiresAt.toISOString();
  const payload = { portId: port.id, expiresAt: term };
  return [
    { kind: JOBS.portRemind, key: `port.remind3:${port.id}:${term}`, runAt: new Date(exp - 3 * DAY_MS), payload: { ...payload, days: 3 } },
    { kind: JOBS.portRemind, key: `port.remind1:${port.id}:${term}`, runAt: new Date(exp - DAY_MS), payload: { ...payload, days: 1 } },
    { kind: JOBS.portAutorenew, key: `port.autorenew:${port.id}:${term}`, runAt: new Date(exp - AUTO_RENEW_BEFORE_MS), payload },
    { kind: JOBS.portExpire, key: `port.expire:${port.id}:${term}`, runAt: port.expiresAt, payload },
    { kind: JOBS.portRelease, key: `port.release:${port.id}:${term}`, runAt: new Date(exp + graceDays * DAY_MS), payload },
  ];
}

/**
 * A trial port's term (issue 27, item 8): it expires after its hours and is released after the grace period, in
 * which the customer may still renew it at the tariff's price. No reminders days ahead and no auto-renewal: a trial
 * is not renewed unless the customer asks.
 */
export function trialTermJobs(port: { id: string; expiresAt: Date }, graceDays: number): ScheduledJob[] {
  return termJobs(port, graceDays).filter((job) => job.kind === JOBS.portExpire || job.kind === JOBS.portRelease);
}
