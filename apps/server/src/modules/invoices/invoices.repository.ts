import { sql, type RawBuilder } from 'kysely';
import type { Database, Tx } from '../../db/database.js';
import type { InvoiceLineRow } from '../../db/tables/payments.js';
import { discountLineText, type InvoiceDiscount, type InvoiceLineInput } from './invoice-lines.js';
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
 * Gives every committed, unnumbered invoice the next numbers of its year, oldest first, a batch per statement.
 * Numbering happens after the payment commits rather than inside it: a counter row locked inside every payment made
 * concurrent purchases queue on it until each one committed. Here the counter row is locked only for one statement
 * and its commit, and many payments share one batch.
 *
 * One statement, so one round trip and one commit per batch (it was a transaction of five, BEGIN to COMMIT: issue 31).
 * Gap-free and unique across instances: the invoices are claimed with SKIP LOCKED (two numberers never take the same
 * one), each series' counter moves by exactly its share of the batch in the statement that writes those numbers, and
 * a failed statement gives its numbers back. The counters are taken invoice series first, years in order, as the
 * transaction took them. Returns how many invoices it numbered.
 */
export async function numberPendingInvoices(db: Database): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await sql`
      with pending as (
        select id, document, issued_at, extract(year from issued_at at time zone 'UTC')::int as year
        from invoices where number is null
        order by issued_at, id limit ${BATCH}
        for update skip locked
      ), series as (
        select document, year, count(*)::int as size from pending group by document, year
      ), invoice_counter as (
        insert into invoice_counters (year, last) select year, size from series where document = 'invoice' order by year
        on conflict (year) do update set last = invoice_counters.last + excluded.last
        returning year, last
      ), receipt_counter as (
        insert into receipt_counters (year, last) select year, size from series where document = 'receipt' order by year
        on conflict (year) do update set last = receipt_counters.last + excluded.last
        returning year, last
      ), counters as (
        select 'invoice'::text as document, year, last from invoice_counter
        union all select 'receipt', year, last from receipt_counter
      ), ranked as (
        select p.id, p.document, p.year,
          c.last - s.size + row_number() over (partition by p.document, p.year order by p.issued_at, p.id) as seq
        from pending p
        join series s on s.document = p.document and s.year = p.year
        join counters c on c.document = p.document and c.year = p.year
      )
      update invoices set number = ${numberText(sql`ranked.document`, sql`ranked.year`, sql`ranked.seq`)}
      from ranked where invoices.id = ranked.id`.execute(db);
    const numbered = Number(result.numAffectedRows ?? 0n);
    total += numbered;
    if (numbered < BATCH) return total;
  }
}

/**
 * invoiceNumber and receiptNumber (invoice-number-format.ts) in SQL, for the numbering's one statement: `document` is
 * 'invoice' or 'receipt'. At least six digits, never cut (lpad alone would cut a seventh; padStart does not).
 */
const numberText = (document: RawBuilder<unknown>, year: RawBuilder<unknown>, seq: RawBuilder<unknown>): RawBuilder<string> =>
  sql<string>`case when ${document} = 'receipt' then 'CP-R-' else 'CP-' end || ${year} || '-' || lpad(${seq}::text, greatest(6, length(${seq}::text)), '0')`;

export type InvoiceRow = Awaited<ReturnType<InvoicesRepository['list']>>[number];
