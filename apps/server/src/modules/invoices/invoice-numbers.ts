import type { InvoicesRepository } from './invoices.repository.js';

// The numbers' formats and the numbering's batches (the repository's: they are its statements), as the tests take them.
export { invoiceNumber, receiptNumber } from './invoice-number-format.js';
export { numberPendingInvoices } from './invoices.repository.js';

/**
 * Runs the numbering in this process at most once at a time. `kick()` after a commit that issued invoices (it
 * returns at once; a kick during a run makes the run go round again); `settle()` before reading invoices, so a
 * reader never sees an unnumbered one. The job runner also calls `settle()` on each tick, which numbers what a
 * crash between a commit and its kick left behind.
 */
export class InvoiceNumbering {
  private running: Promise<void> | undefined;
  private again = false;

  constructor(private readonly repo: InvoicesRepository, private readonly log: { error(obj: unknown, msg: string): void }) {}

  kick(): void {
    void this.run().catch((err: unknown) => this.log.error({ err }, 'numbering invoices failed'));
  }

  /** Numbers whatever is pending now; cheap (one indexed probe) when nothing is. */
  async settle(): Promise<void> {
    if (this.running) await this.running.catch(() => {});
    if (await this.repo.anyUnnumbered()) await this.run();
  }

  /** Waits for a run in progress (shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running.catch(() => {});
  }

  private run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.repo.numberPending();
        } while (this.again);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }
}
