import type { MetricsRepository } from './metrics.repository.js';

export interface CountRow<L extends string> { labels: Record<L, string>; n: number }

/** What the database holds, as the gauges show it. */
export interface Counts {
  jobs: Array<CountRow<'state'>>;
  ports: Array<CountRow<'state'>>;
  modems: Array<CountRow<'health'>>;
  payments: Array<CountRow<'provider' | 'outcome'>>;
}

/** The states each gauge always shows, at 0 when nothing is in them (a series that vanishes reads as "no data"). */
const JOB_STATES = ['due', 'scheduled', 'retrying'];
const PORT_STATES = ['active', 'suspended', 'expired', 'released'];
const MODEM_HEALTH = ['online', 'degraded', 'offline'];
const PAYMENT_PROVIDERS = ['btc', 'usdt', 'card', 'paypal'];
const ORDER_OUTCOMES = ['pending', 'completed', 'cancelled', 'expired', 'failed'];

/** How long one reading serves scrapes: several Prometheus servers, or a quick retry, cost one statement. */
const KEEP_MS = 5_000;

/**
 * The gauges read from the database — the job queue, ports, modems, payments — counted by one grouped statement
 * when scraped and kept a few seconds; concurrent scrapes share the statement in flight. Nothing here runs on a
 * request. A failed reading (the database away) keeps the previous one, so a scrape still answers the process
 * metrics; the failure is logged.
 *
 * Payments are counted from their rows, not by counters where they complete: an order's outcome is decided in many
 * places (webhooks, IPNs, the deposit scanner, expiry, the console), on whichever instance, and the rows are the
 * truth — the same on every instance (aggregate with max(), not sum()) and through restarts. Orders count by their
 * status (btc and usdt apart); purchases and renewals paid from the balance have no order and count as `balance`.
 */
export class ScrapeCounts {
  private last: { at: number; counts: Counts } | null = null;
  private inFlight: Promise<Counts> | null = null;

  constructor(private readonly repo: MetricsRepository, private readonly log: { warn(obj: unknown, msg: string): void }, private readonly keepMs = KEEP_MS) {}

  read(): Promise<Counts> {
    // A clock set back does not keep a reading longer.
    const age = this.last ? Date.now() - this.last.at : -1;
    if (this.last && age >= 0 && age < this.keepMs) return Promise.resolve(this.last.counts);
    this.inFlight ??= this.load()
      .then((counts) => { this.last = { at: Date.now(), counts }; return counts; })
      .catch((err: unknown) => {
        this.log.warn({ err }, 'metrics: counting from the database failed; the last counts are shown');
        return this.last?.counts ?? EMPTY;
      })
      .finally(() => { this.inFlight = null; });
    return this.inFlight;
  }

  private async load(): Promise<Counts> {
    const rows = await this.repo.countRows();
    const counts: Counts = {
      jobs: JOB_STATES.map((state) => ({ labels: { state }, n: 0 })),
      ports: PORT_STATES.map((state) => ({ labels: { state }, n: 0 })),
      modems: MODEM_HEALTH.map((health) => ({ labels: { health }, n: 0 })),
      payments: PAYMENT_PROVIDERS.flatMap((provider) => ORDER_OUTCOMES.map((outcome) => ({ labels: { provider, outcome }, n: 0 })))
        .concat({ labels: { provider: 'balance', outcome: 'completed' }, n: 0 }),
    };
    for (const row of rows) {
      const n = Number(row.n);
      if (row.series === 'job') add(counts.jobs, { state: row.a }, n);
      else if (row.series === 'port') add(counts.ports, { state: row.a }, n);
      else if (row.series === 'modem') add(counts.modems, { health: row.a }, n);
      else add(counts.payments, { provider: row.a, outcome: row.b }, n);
    }
    return counts;
  }
}

const EMPTY: Counts = { jobs: [], ports: [], modems: [], payments: [] };

function add<L extends string>(rows: Array<CountRow<L>>, labels: Record<L, string>, n: number): void {
  const keys = Object.keys(labels) as L[];
  const row = rows.find((r) => keys.every((k) => r.labels[k] === labels[k]));
  if (row) row.n += n;
  else rows.push({ labels, n });
}
