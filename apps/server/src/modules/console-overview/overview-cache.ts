import type { OverviewResponse } from '@cellport/shared/schemas/admin/overview';
import { BUS_RESYNC, type Bus } from '../../lib/bus.js';
import { overview } from './overview.service.js';
import { TOPICS } from '../../lib/bus-topics.js';
import type { OverviewRepository } from './overview.repository.js';

/** How old an overview may be when it is answered again (decision 029). */
export const OVERVIEW_MAX_AGE_MS = 5_000;
/**
 * How old a kept overview may still be answered while a fresh one loads behind it (decision 049); an older one is
 * loaded while the operator waits, so a console opened after a quiet minute never shows a stale figure.
 */
export const OVERVIEW_STALE_MS = 60_000;

interface Kept { at: number; value: Promise<OverviewResponse>; settled: boolean }

/**
 * The console overview's answer, kept a few seconds per period (`days`). Its totals cover every customer, port and
 * modem, so an answer costs time that grows with the business (decision 029: about 20 ms of database work on 100,000
 * customers after the indexes, against about 3 ms empty; decision 049: 300-550 ms a total at 1,000,000 customers).
 * - Up to OVERVIEW_MAX_AGE_MS old: answered as kept.
 * - Older, up to OVERVIEW_STALE_MS: answered as kept at once, and one fresh load starts behind it (decision 049), so
 *   an operator never waits for the totals of the whole business while one was answered within the last minute.
 *   A sign-up, a purchase from the balance or an expiry shows within the age plus one load.
 * - Older still, or none: loaded while the caller waits (callers asking meanwhile share the load).
 * - A completed outside payment (the bus's payment:completed, from every instance) drops every kept answer, so new
 *   revenue shows at once; so does a lost and regained LISTEN (BUS_RESYNC), when announcements may have been missed.
 * - A load that an announcement overtakes is answered to those already waiting for it, but not kept.
 * - A failed load is not kept (a failed load behind a kept answer leaves that answer kept).
 */
export class OverviewCache {
  private readonly kept = new Map<number, Kept>();
  private readonly refreshing = new Map<number, Promise<void>>();
  /** Counts the drops, so a load that one overtook is not kept. */
  private generation = 0;

  constructor(
    private readonly repo: OverviewRepository,
    bus: Bus,
    private readonly maxAgeMs = OVERVIEW_MAX_AGE_MS,
    private readonly clock: () => number = Date.now,
    private readonly staleMs = OVERVIEW_STALE_MS,
  ) {
    const drop = () => { this.generation++; this.kept.clear(); };
    bus.on(TOPICS.paymentCompleted, drop);
    bus.on(BUS_RESYNC, drop);
  }

  get(days: number): Promise<OverviewResponse> {
    const now = this.clock();
    const hit = this.kept.get(days);
    if (hit && (now - hit.at < this.maxAgeMs || !hit.settled)) return hit.value;
    if (hit && now - hit.at < this.staleMs) {
      if (!this.refreshing.has(days)) this.refreshBehind(days, now);
      return hit.value;
    }
    return this.load(days, now).value;
  }

  /** The fresh load started behind a kept answer for `days`, if one is under way (tests wait for it). */
  refreshed(days: number): Promise<void> {
    return this.refreshing.get(days) ?? Promise.resolve();
  }

  private load(days: number, now: number): Kept {
    const generation = this.generation;
    const entry: Kept = { at: now, value: overview(this.repo, days, new Date(now)), settled: false };
    entry.value.then(
      () => { entry.settled = true; },
      () => { if (this.kept.get(days) === entry) this.kept.delete(days); },
    );
    if (generation === this.generation) this.kept.set(days, entry);
    return entry;
  }

  private refreshBehind(days: number, now: number): void {
    const generation = this.generation;
    const value = overview(this.repo, days, new Date(now));
    const done = value.then(
      () => { if (generation === this.generation) this.kept.set(days, { at: now, value, settled: true }); },
      () => { /* the kept answer stays; the next ask past the age tries again */ },
    ).finally(() => { this.refreshing.delete(days); });
    this.refreshing.set(days, done);
  }
}
