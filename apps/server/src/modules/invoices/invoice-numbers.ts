import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/** 'CP-2026-000123'. */
export const invoiceNumber = (year: number, seq: number) => `CP-${year}-${String(seq).padStart(6, '0')}`;
/** 'CP-R-2026-000045': receipts have their own series, so the invoices' stays gap-free (decision 038). */
export const receiptNumber = (year: number, seq: number) => `CP-R-${year}-${String(seq).padStart(6, '0')}`;

type Document = 'invoice' | 'receipt';

const BATCH = 500;

/**
 * Gives every committed, unnumbered invoice the next numbers of its year, oldest first, in one short transaction
 * per batch. Numbering happens after the payment commits rather than inside it: a counter row locked inside every
 * payment made concurrent purchases queue on it until each one committed. Here the counter row is locked only
 * for the two statements of a batch, and many payments share one batch.
 *
 * Gap-free and unique across instances: the invoices are claimed with SKIP LOCKED (two numberers never take the
 * same one), the counter moves by exactly the batch's size in the transaction that writes those numbers, and a
 * rolled-back batch gives its numbers back. Returns how many invoices it numbered.
 */
export async function numberPendingInvoices(db: Database): Promise<number> {
  let total = 0;
  for (;;) {
    const numbered = await db.transaction().execute(async (tx) => {
      const pending = await tx.selectFrom('invoices').select(['id', 'issued_at', 'document'])
        .where('number', 'is', null).orderBy('issued_at').orderBy('id').limit(BATCH)
        .forUpdate().skipLocked().execute();
      // One series per kind of document and year, each counted in its own table.
      const bySeries = new Map<string, { document: Document; year: number; ids: string[] }>();
      for (const row of pending) {
        const year = row.issued_at.getUTCFullYear();
        const key = `${row.document}:${year}`;
        const series = bySeries.get(key) ?? { document: row.document, year, ids: [] };
        series.ids.push(row.id);
        bySeries.set(key, series);
      }
      for (const { document, year, ids } of [...bySeries.values()].sort((a, b) => a.year - b.year || a.document.localeCompare(b.document))) {
        const counter = document === 'receipt'
          ? await tx.insertInto('receipt_counters').values({ year, last: ids.length })
            .onConflict((oc) => oc.column('year').doUpdateSet({ last: sql`receipt_counters.last + ${ids.length}` }))
            .returning('last').executeTakeFirstOrThrow()
          : await tx.insertInto('invoice_counters').values({ year, last: ids.length })
            .onConflict((oc) => oc.column('year').doUpdateSet({ last: sql`invoice_counters.last + ${ids.length}` }))
            .returning('last').executeTakeFirstOrThrow();
        const first = counter.last - ids.length + 1;
        const format = document === 'receipt' ? receiptNumber : invoiceNumber;
        const numbers = ids.map((_, i) => format(year, first + i));
        await sql`
          update invoices set number = numbered.number
          from unnest(${ids}::uuid[], ${numbers}::text[]) as numbered(id, number)
          where invoices.id = numbered.id`.execute(tx);
      }
      return pending.length;
    });
    total += numbered;
    if (numbered < BATCH) return total;
  }
}

/**
 * Runs the numbering in this process at most once at a time. `kick()` after a commit that issued invoices (it
 * returns at once; a kick during a run makes the run go round again); `settle()` before reading invoices, so a
 * reader never sees an unnumbered one. The job runner also calls `settle()` on each tick, which numbers what a
 * crash between a commit and its kick left behind.
 */
export class InvoiceNumbering {
  private running: Promise<void> | undefined;
  private again = false;

  constructor(private readonly db: Database, private readonly log: { error(obj: unknown, msg: string): void }) {}

  kick(): void {
    void this.run().catch((err: unknown) => this.log.error({ err }, 'numbering invoices failed'));
  }

  /** Numbers whatever is pending now; cheap (one indexed probe) when nothing is. */
  async settle(): Promise<void> {
    if (this.running) await this.running.catch(() => {});
    const pending = await this.db.selectFrom('invoices').select('id').where('number', 'is', null).limit(1).executeTakeFirst();
    if (pending) await this.run();
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
          await numberPendingInvoices(this.db);
        } while (this.again);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }
}
