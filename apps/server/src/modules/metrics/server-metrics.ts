import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ScrapeCounts } from './scrape-counts.js';

/** What the pool gauges read of the open database (db/database.ts's handle): its kind and its pool at the scrape. */
export interface DatabasePool {
  kind: string;
  poolStats(): { total: number; idle: number; waiting: number; max: number };
}

/** Sockets connected to this instance: the customers' realtime server and the agents' host protocol. */
export interface RealtimeSockets { customers(): number; agents(): number }

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];

/**
 * The server's Prometheus metrics (issue 17, item 2), in a registry of this app's own: tests build many apps in one
 * process, and prom-client's global registry would mix them (and refuse a metric registered twice).
 * Counters and histograms are fed as things happen (a request answered, a query run, a job failed, a poll served
 * from memory); everything read from the database — ports, modems, payments, the job queue — is read when scraped,
 * by one grouped statement kept a few seconds (scrape-counts.ts), so no request pays for the metrics.
 * Process metrics (CPU, memory, event loop, GC) are prom-client's defaults, collected only when /metrics is enabled:
 * they install observers that live as long as the process.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status_class'>;
  private readonly queryDuration: Histogram;
  private readonly queryErrors: Counter;
  private readonly jobFailures: Counter<'kind'>;
  private readonly pollHits: Counter<'cache' | 'route'>;
  private readonly pollMisses: Counter<'cache' | 'route'>;
  private realtime: RealtimeSockets | null = null;

  constructor(database: DatabasePool, counts: ScrapeCounts, options: { processMetrics: boolean }) {
    const registers = [this.registry];
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });

    this.httpDuration = new Histogram({
      name: 'cellport_http_request_duration_seconds', help: 'Time to answer a request, by route pattern and status class',
      labelNames: ['method', 'route', 'status_class'], buckets: HTTP_BUCKETS, registers,
    });

    // The pool as it is at the scrape. PGlite is one connection: total and max are 1, idle 0 while a query or a
    // transaction holds it, waiting the queries queued behind it.
    const pool = (name: string, help: string, pick: (s: ReturnType<DatabasePool['poolStats']>) => number) => new Gauge({
      name, help, labelNames: ['database'], registers,
      collect() { this.set({ database: database.kind }, pick(database.poolStats())); },
    });
    pool('cellport_db_pool_connections', 'Open database connections (in use and idle)', (s) => s.total);
    pool('cellport_db_pool_idle_connections', 'Open database connections not in use', (s) => s.idle);
    pool('cellport_db_pool_waiting_queries', 'Queries waiting for a database connection', (s) => s.waiting);
    pool('cellport_db_pool_max_connections', 'The most connections the pool opens', (s) => s.max);
    this.queryDuration = new Histogram({
      name: 'cellport_db_query_duration_seconds', help: 'Time a database statement took (from Kysely\'s log hook)',
      buckets: QUERY_BUCKETS, registers,
    });
    this.queryErrors = new Counter({ name: 'cellport_db_query_errors_total', help: 'Database statements that failed', registers });

    this.jobFailures = new Counter({
      name: 'cellport_jobs_failures_total', help: 'Job runs that failed (each is retried later with backoff)', labelNames: ['kind'], registers,
    });
    new Gauge({
      name: 'cellport_jobs_queue_depth', help: 'Jobs not done: due now, scheduled later, or waiting to retry after a failure',
      labelNames: ['state'], registers,
      async collect() { setAll(this, (await counts.read()).jobs); },
    });

    this.pollHits = new Counter({
      name: 'cellport_poll_cache_hits_total',
      help: 'Polls answered from memory: a conditional GET answered 304 (poll_version) or the ports list kept as JSON (ports_list)',
      labelNames: ['cache', 'route'], registers,
    });
    this.pollMisses = new Counter({
      name: 'cellport_poll_cache_misses_total', help: 'Polls answered from the database', labelNames: ['cache', 'route'], registers,
    });

    const realtime = () => this.realtime;
    new Gauge({
      name: 'cellport_realtime_connections', help: 'Sockets connected to this instance: customers (socket.io) and agents (host protocol)',
      labelNames: ['server'], registers,
      collect() {
        const sockets = realtime();
        this.set({ server: 'customers' }, sockets?.customers() ?? 0);
        this.set({ server: 'agents' }, sockets?.agents() ?? 0);
      },
    });

    new Gauge({
      name: 'cellport_payments', help: 'Payment orders by provider (btc, usdt, card, paypal) and outcome, and purchases from the balance',
      labelNames: ['provider', 'outcome'], registers,
      async collect() { setAll(this, (await counts.read()).payments); },
    });
    new Gauge({
      name: 'cellport_ports', help: 'Customers\' ports by state', labelNames: ['state'], registers,
      async collect() { setAll(this, (await counts.read()).ports); },
    });
    new Gauge({
      name: 'cellport_modems', help: 'Modems in service (not retired) by health', labelNames: ['health'], registers,
      async collect() { setAll(this, (await counts.read()).modems); },
    });
  }

  /** A request answered: `route` is the route's pattern (never the raw URL, which would make a series per id). */
  requestDone(method: string, route: string, status: number, seconds: number): void {
    this.httpDuration.observe({ method, route, status_class: STATUS_CLASSES[Math.floor(status / 100) - 1] ?? 'other' }, seconds);
  }

  queryDone(seconds: number, failed: boolean): void {
    this.queryDuration.observe(seconds);
    if (failed) this.queryErrors.inc();
  }

  jobFailed(kind: string): void { this.jobFailures.inc({ kind }); }

  pollServed(cache: 'poll_version' | 'ports_list', route: string, fromMemory: boolean): void {
    (fromMemory ? this.pollHits : this.pollMisses).inc({ cache, route });
  }

  /** The socket.io servers start after the composition (app.ts); they are read at each scrape. */
  watchRealtime(sockets: RealtimeSockets): void { this.realtime = sockets; }

  text(): Promise<string> { return this.registry.metrics(); }

  get contentType(): string { return this.registry.contentType; }
}

/** Replaces a gauge's series with these counts: a combination no longer counted goes (known states come as 0). */
function setAll<L extends string>(gauge: Gauge<L>, rows: ReadonlyArray<{ labels: Record<L, string>; n: number }>): void {
  gauge.reset();
  for (const row of rows) gauge.set(row.labels, row.n);
}
