/**
 * Where webhook deliveries run (issue 26): beside the job runner, never inside its round, so a slow customer's
 * endpoint holds one slot here and nothing else — expiry, renewals, rotations and other customers' deliveries go on.
 * At most `concurrency` endpoints are served at once and each endpoint by one delivery at a time (its order needs that
 * anyway), so one customer cannot take every slot. An endpoint offered while full or already served is refused and
 * offered again by the next round; nothing waits in memory, so nothing is lost when the process stops.
 */
export class DeliveryWorker {
  private readonly running = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(
    private readonly concurrency: number,
    private readonly log?: { error(obj: unknown, msg: string): void },
  ) {}

  /** Free slots now. */
  get free(): number { return this.stopped ? 0 : this.concurrency - this.running.size; }

  /** True once `stop` was called: work in flight ends after its current step. */
  get stopping(): boolean { return this.stopped; }

  /** Starts `work` for the endpoint if a slot is free and the endpoint has none running; false when refused. */
  offer(endpointId: string, work: () => Promise<void>): boolean {
    if (this.free <= 0 || this.running.has(endpointId)) return false;
    const run = work()
      .catch((err: unknown) => this.log?.error({ err, endpoint: endpointId }, 'webhook delivery failed'))
      .finally(() => this.running.delete(endpointId));
    this.running.set(endpointId, run);
    return true;
  }

  /** Resolves once nothing runs (tests wait for the deliveries a round started; shutdown for those in flight). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running.values()]);
  }

  /** No new work from now on; resolves when the work in flight (each bounded by its deadline) has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
  }
}
