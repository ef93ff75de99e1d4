import { sql, type RawBuilder } from 'kysely';
import type { Database, Tx } from '../../db/database.js';
import type { InvoiceLineRow } from '../../db/tables/payments.js';
import { discountLineText, type InvoiceDiscount, type InvoiceLineInput } from './invoice-lines.js';
import { invoiceNumber, receiptNumber } from './invoice-number-format.js';
import { invoiceTexts } from './invoice-texts.js';

export type { InvoiceCustomer, InvoiceLineRow, InvoiceSeller, StoredText } from '../../db/tables/payments.js';

/**
 * Issues the invoice of a completed payment, inside the transaction that completes it: one statement that copies
 * the payment and the customer's details as they are now. The number comes just after the commit
 * (invoice-numbers.ts), so an invoice exists exactly when its payment does and the numbers stay gap-free.
 * Idempotent per payment (payment_id is unique).
 */
export async function issueInvoice(tx: Tx, paymentId: string, lines: InvoiceLineInput[], discount?: InvoiceDiscount): Promise<void> {
  await invoiceInsert(sql`payments`, paymentId, lines, discount).execute(tx);
}

/**
 * The same INSERT, reading the payment from `payments`: a table, or the CTE of the payment's own INSERT when both go
 * in one statement (a purchase: one round trip fewer, issue 31). A sibling CTE cannot see the row another one
 * inserts in the table, only through that CTE's name.
 */
export function invoiceInsert(payments: RawBuilder<unknown>, paymentId: string, lines: InvoiceLineInput[], discount?: InvoiceDiscount): RawBuilder<unknown> {
  const rows: InvoiceLineRow[] = lines.map((l) => ({
    description: l.description, ...(l.text ? { text: l.text } : {}), quantity: l.quantity, unitAmount: l.unitAmount.toString(),
    amount: l.amount.toString(),
  }));
  if (discount && discount.amount > 0n) {
    const minus = (-discount.amount).toString();
    rows.push({
      description: invoiceTexts(discount.lng).discountLine(discount.coupon), text: discountLineText(discount.coupon),
      quantity: 1, unitAmount: minus, amount: minus,
    });
  }
  // A top-up is a receipt, anything bought an invoice (decision 038); the seller's details as the console has them now.
  return sql`
    insert into invoices (user_id, payment_id, provider, description, description_text, amount, lines, customer, document, seller)
    select p.user_id, p.id, p.provider, p.description, p.description_text, p.amount, ${JSON.stringify(rows)}::jsonb,
      jsonb_build_object('name', u.name, 'email', u.email, 'company_name', u.company_name,
        'address', u.billing_address, 'vat_number', u.vat_number),
      case when p.kind = 'topup' then 'receipt' else 'invoice' end,
      (select coalesce(jsonb_object_agg(case s.key when 'sellerName' then 'name' when 'sellerAddress' then 'address' else 'taxId' end, s.value), '{}'::jsonb)
         from settings s where s.key in ('sellerName', 'sellerAddress', 'sellerTaxId'))
    from ${payments} p join users u on u.id = p.user_id
    where p.id = ${paymentId}
    on conflict (payment_id) do nothing`;
}

const COLUMNS = [
  'id', 'number', 'payment_id', 'issued_at', 'description', 'description_text', 'provider', 'amount', 'lines', 'customer',
  'document', 'seller',
] as const;

type InvoiceDocument = 'invoice' | 'receipt';

/** The invoices and receipts, their two series' counters, and the numbering's steps. */
export class InvoicesRepository {
  constructor(private readonly db: Database) {}

  /** The customer's numbered invoices, newest first (scoped by user id: another customer's is simply not found). */
  list(userId: string) {
    return this.db.selectFrom('invoices').select(COLUMNS)
      .where('user_id', '=', userId).where('number', 'is not', null).$narrowType<{ number: string }>()
      .orderBy('issued_at', 'desc').orderBy('number', 'desc').limit(1000).execute();
  }

  one(userId: string, id: string) {
    return this.db.selectFrom('invoices').select(COLUMNS)
      .where('user_id', '=', userId).where('id', '=', id).where('number', 'is not', null).$narrowType<{ number: string }>()
      .executeTakeFirst();
  }

  /** The language the customer chose (users.language), in which their invoices are printed. */
  async customerLanguage(userId: string): Promise<string | null> {
    const row = await this.db.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirst();
    return row?.language ?? null;
  }

  /** Whether any invoice waits for its number: one indexed probe. */
  async anyUnnumbered(): Promise<boolean> {
    const pending = await this.db.selectFrom('invoices').select('id').where('number', 'is', null).limit(1).executeTakeFirst();
    return pending !== undefined;
  }

  /** Numbers every committed, unnumbered invoice (numberPendingInvoices). */
  numberPending(): Promise<number> {
    return numberPendingInvoices(this.db);
  }
}

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
      const bySeries = new Map<string, { document: InvoiceDocument; year: number; ids: string[] }>();
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

export type InvoiceRow = Awaited<ReturnType<InvoicesRepository['list']>>[number];
