import type { InvoicesRepository } from './invoices.repository.js';

// The numbers' formats and the numbering's batches (the repository's: they are its statements), as the tests take them.
export { invoiceNumber, receiptNumber } from './invoice-number-format.js';
export { numberPendingInvoices } from './invoices.repository.js';

/**
 * Runs the numbering in this process at most once at a time. `kick()` after a commit that issued invoices (it
 * returns at once); `settle()` before reading invoices, so a reader never sees an unnumbered one. The job runner also
 * calls `settle()` on each tick, which numbers what a crash between a commit and its kick left behind.
 *
 * A kick numbers within `windowMs`, not at once: the purchases of that window share one statement and one commit
 * (issue 31: back to back, under 50 buyers the runs were a commit for every three or four purchases). Nobody waits
 * for it: readers settle, and shutdown (`idle()`) numbers what a pending kick would have.
 */
export class InvoiceNumbering {
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private again = false;

  constructor(
    private readonly repo: InvoicesRepository,
    private readonly log: { error(obj: unknown, msg: string): void },
    private readonly windowMs = 50,
  ) {}

  kick(): void {
    if (this.running) this.again = true;
    else this.schedule();
  }

  /** Numbers whatever is pending now; cheap (one indexed probe) when nothing is. */
  async settle(): Promise<void> {
    if (this.running) await this.running.catch(() => {});
    if (await this.repo.anyUnnumbered()) await this.runNow();
  }

  /** Numbers what a pending kick would have, and waits for a run in progress (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.running || this.timer) {
      if (this.timer) void this.runNow().catch(() => {});
      await this.running?.catch(() => {});
    }
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      void this.runNow().catch((err: unknown) => this.log.error({ err }, 'numbering invoices failed'));
    }, this.windowMs);
    this.timer.unref();
  }

  private runNow(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    // After the run in progress, which may have claimed its invoices before the caller's commit: a run of its own.
    if (this.running) return this.running.catch(() => {}).then(() => this.runNow());
    this.again = false;
    this.running = (async () => {
      try {
        await this.repo.numberPending();
      } finally {
        this.running = undefined;
        // Kicked during the run: those invoices wait for the next window, with whatever else it brings.
        if (this.again) {
          this.again = false;
          this.schedule();
        }
      }
    })();
    return this.running;
  }
}
