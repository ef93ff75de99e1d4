import type { JobQueue, ScheduledJob } from '../../jobs/queue.js';
import type { Tx } from '../../db/database.js';
import { JOBS } from '../../jobs/job-kinds.js';

const DAY_MS = 86_400_000;
/** A week's or a month's term is auto-renewed a day before it ends, so a short balance leaves a day to add funds. */
const AUTO_RENEW_BEFORE_MS = DAY_MS;
/** A shorter term (a day port) is auto-renewed this share of itself before its end: 6 h for a day. */
const AUTO_RENEW_SHARE_OF_SHORT_TERM = 0.25;

/**
 * The jobs of port terms, in one statement. Keys carry the expiry, so a renewal (a new expiry) schedules a fresh
 * set and the old set finds the expiry changed and does nothing.
 */
export async function schedulePortLifecycle(jobs: JobQueue, tx: Tx, ports: Array<{ id: string; expiresAt: Date }>, graceDays: number): Promise<void> {
  const now = Date.now();
  await jobs.schedule(tx, ports.flatMap((port) => termJobs(port, graceDays, now)));
}

/**
 * The jobs of one port term, scheduled at `now`: the reminders 3 days and 1 day before the end that fall inside the
 * term (a day port gets neither: "expires in 3 days" would be untrue at its start), the auto-renewal (a day before the
 * end, or a quarter of a shorter term before it: at its start it would find auto-renew off and never come again), the
 * expiry and the release after the grace period.
 */
export function termJobs(port: { id: string; expiresAt: Date }, graceDays: number, now = Date.now()): ScheduledJob[] {
  const exp = port.expiresAt.getTime();
  const term = port.expiresAt.toISOString();
  const payload = { portId: port.id, expiresAt: term };
  const reminders = [3, 1].filter((days) => exp - days * DAY_MS > now).map((days): ScheduledJob => (
    { kind: JOBS.portRemind, key: `port.remind${days}:${port.id}:${term}`, runAt: new Date(exp - days * DAY_MS), payload: { ...payload, days } }
  ));
  const renewBefore = Math.min(AUTO_RENEW_BEFORE_MS, (exp - now) * AUTO_RENEW_SHARE_OF_SHORT_TERM);
  return [
    ...reminders,
    { kind: JOBS.portAutorenew, key: `port.autorenew:${port.id}:${term}`, runAt: new Date(exp - renewBefore), payload },
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
