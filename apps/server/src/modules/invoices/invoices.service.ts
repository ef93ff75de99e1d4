import { sql } from 'kysely';
import type { Invoice } from '@cellport/shared/schemas/payments';
import type { Database } from '../../db/database.js';
import type { InvoiceLineRow } from '../../db/tables/payments.js';
import type { Tx } from '../ledger/ledger.service.js';

export interface InvoiceLineInput { description: string; quantity: number; unitAmount: bigint; amount: bigint }

/** 'CP-2026-000123'. */
export const invoiceNumber = (year: number, seq: number) => `CP-${year}-${String(seq).padStart(6, '0')}`;

/**
 * Issues the invoice of a completed payment, inside the transaction that completes it. The per-year counter row is
 * incremented in that same transaction, so a rolled-back payment gives its number back: the sequence has no gaps,
 * and concurrent payments queue on the counter row for the few statements left before they commit.
 * Idempotent per payment (payment_id is unique).
 */
export async function issueInvoice(tx: Tx, paymentId: string, lines: InvoiceLineInput[], discount = 0n, coupon?: string | null): Promise<void> {
  const payment = await tx.selectFrom('payments').innerJoin('users', 'users.id', 'payments.user_id')
    .select(['payments.user_id', 'payments.provider', 'payments.description', 'payments.amount', 'payments.coupon',
      'users.name', 'users.email', 'users.company_name'])
    .where('payments.id', '=', paymentId).executeTakeFirstOrThrow();
  const exists = await tx.selectFrom('invoices').select('id').where('payment_id', '=', paymentId).executeTakeFirst();
  if (exists) return;
  const year = new Date().getUTCFullYear();
  const counter = await tx.insertInto('invoice_counters').values({ year, last: 1 })
    .onConflict((oc) => oc.column('year').doUpdateSet({ last: sql`invoice_counters.last + 1` }))
    .returning('last').executeTakeFirstOrThrow();
  const rows: InvoiceLineRow[] = lines.map((l) => ({
    description: l.description, quantity: l.quantity, unitAmount: l.unitAmount.toString(), amount: l.amount.toString(),
  }));
  if (discount > 0n) {
    const name = coupon ?? payment.coupon;
    rows.push({ description: name ? `Coupon ${name}` : 'Discount', quantity: 1, unitAmount: (-discount).toString(), amount: (-discount).toString() });
  }
  await tx.insertInto('invoices').values({
    number: invoiceNumber(year, counter.last), user_id: payment.user_id, payment_id: paymentId, provider: payment.provider,
    description: payment.description, amount: payment.amount, lines: JSON.stringify(rows),
    customer: JSON.stringify({ name: payment.name, email: payment.email, company_name: payment.company_name }),
  }).execute();
}

type InvoiceRow = {
  id: string; number: string; payment_id: string; issued_at: Date; description: string; provider: string; amount: bigint;
  lines: InvoiceLineRow[]; customer: Invoice['customer'];
};

const toApi = (r: InvoiceRow): Invoice => ({
  _id: r.id, number: r.number, paymentId: r.payment_id, issuedAt: r.issued_at.toISOString(), description: r.description,
  provider: r.provider as Invoice['provider'], amount: r.amount.toString(), currency: 'USD', lines: r.lines, customer: r.customer,
});

/** The customer's invoices (scoped by user id: another customer's invoice is simply not found). */
export class InvoicesService {
  constructor(private readonly db: Database) {}

  async list(userId: string): Promise<Invoice[]> {
    const rows = await this.db.selectFrom('invoices')
      .select(['id', 'number', 'payment_id', 'issued_at', 'description', 'provider', 'amount', 'lines', 'customer'])
      .where('user_id', '=', userId).orderBy('issued_at', 'desc').orderBy('number', 'desc').limit(1000).execute();
    return rows.map(toApi);
  }

  async get(userId: string, id: string): Promise<Invoice | null> {
    const row = await this.db.selectFrom('invoices')
      .select(['id', 'number', 'payment_id', 'issued_at', 'description', 'provider', 'amount', 'lines', 'customer'])
      .where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    return row ? toApi(row) : null;
  }

  /** The language the customer chose (users.language), in which their invoices are printed. */
  async customerLanguage(userId: string): Promise<string | null> {
    const row = await this.db.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirst();
    return row?.language ?? null;
  }
}
