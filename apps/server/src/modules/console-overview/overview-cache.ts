import type { OverviewResponse } from '@cellport/shared/schemas/admin/overview';
import { BUS_RESYNC, type Bus } from '../../lib/bus.js';
import { overview } from './overview.service.js';
import { TOPICS } from '../../lib/bus-topics.js';
import type { OverviewRepository } from './overview.repository.js';

/** How old an overview may be when it is answered again (decision 029). */
export const OVERVIEW_MAX_AGE_MS = 5_000;

/**
 * The console overview's answer, kept a few seconds per period (`days`). Its totals cover every customer, port and
 * modem, so an answer costs time that grows with the business (decision 029: about 20 ms of database work on 100,000
 * customers after the indexes, against about 3 ms empty); a console reloading it, or several operators, reuse it.
 * - At most OVERVIEW_MAX_AGE_MS old: a sign-up, a purchase from the balance or an expiry shows within that time.
 * - A completed outside payment (the bus's payment:completed, from every instance) drops every kept answer, so new
 *   revenue shows at once; so does a lost and regained LISTEN (BUS_RESYNC), when announcements may have been missed.
 * - A load that an announcement overtakes is answered to those already waiting for it, but not kept.
 * - A failed load is not kept.
 */
export class OverviewCache {
  private readonly kept = new Map<number, { at: number; value: Promise<OverviewResponse> }>();

  constructor(
    private readonly repo: OverviewRepository,
    bus: Bus,
    private readonly maxAgeMs = OVERVIEW_MAX_AGE_MS,
    private readonly clock: () => number = Date.now,
  ) {
    const drop = () => { this.kept.clear(); };
    bus.on(TOPICS.paymentCompleted, drop);
    bus.on(BUS_RESYNC, drop);
  }

  get(days: number): Promise<OverviewResponse> {
    const now = this.clock();
    const hit = this.kept.get(days);
    if (hit && now - hit.at < this.maxAgeMs) return hit.value;
    const entry = { at: now, value: overview(this.repo, days, new Date(now)) };
    entry.value.catch(() => { if (this.kept.get(days) === entry) this.kept.delete(days); });
    this.kept.set(days, entry);
    return entry.value;
  }
}
