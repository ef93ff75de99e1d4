import { sql } from 'kysely';
import type { Invoice } from '@cellport/shared/schemas/payments';
import type { Database, Tx } from '../../db/database.js';
import type { InvoiceLineRow } from '../../db/tables/payments.js';
import type { InvoiceNumbering } from './invoice-numbers.js';
import { invoiceTexts } from './invoice-texts.js';

export interface InvoiceLineInput { description: string; quantity: number; unitAmount: bigint; amount: bigint }
/** A coupon's discount, printed as its own negative line in the buyer's language. */
export interface InvoiceDiscount { amount: bigint; coupon: string | null; lng: string }

/**
 * Issues the invoice of a completed payment, inside the transaction that completes it: one statement that copies
 * the payment and the customer's details as they are now. The number comes just after the commit
 * (invoice-numbers.ts), so an invoice exists exactly when its payment does and the numbers stay gap-free.
 * Idempotent per payment (payment_id is unique).
 */
export async function issueInvoice(tx: Tx, paymentId: string, lines: InvoiceLineInput[], discount?: InvoiceDiscount): Promise<void> {
  const rows: InvoiceLineRow[] = lines.map((l) => ({
    description: l.description, quantity: l.quantity, unitAmount: l.unitAmount.toString(), amount: l.amount.toString(),
  }));
  if (discount && discount.amount > 0n) {
    const minus = (-discount.amount).toString();
    rows.push({ description: invoiceTexts(discount.lng).discountLine(discount.coupon), quantity: 1, unitAmount: minus, amount: minus });
  }
  await sql`
    insert into invoices (user_id, payment_id, provider, description, amount, lines, customer)
    select p.user_id, p.id, p.provider, p.description, p.amount, ${JSON.stringify(rows)}::jsonb,
      jsonb_build_object('name', u.name, 'email', u.email, 'company_name', u.company_name)
    from payments p join users u on u.id = p.user_id
    where p.id = ${paymentId}
    on conflict (payment_id) do nothing`.execute(tx);
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
  constructor(private readonly db: Database, private readonly numbering: InvoiceNumbering) {}

  async list(userId: string): Promise<Invoice[]> {
    await this.numbering.settle();
    const rows = await this.db.selectFrom('invoices')
      .select(['id', 'number', 'payment_id', 'issued_at', 'description', 'provider', 'amount', 'lines', 'customer'])
      .where('user_id', '=', userId).where('number', 'is not', null).$narrowType<{ number: string }>()
      .orderBy('issued_at', 'desc').orderBy('number', 'desc').limit(1000).execute();
    return rows.map(toApi);
  }

  async get(userId: string, id: string): Promise<Invoice | null> {
    await this.numbering.settle();
    const row = await this.db.selectFrom('invoices')
      .select(['id', 'number', 'payment_id', 'issued_at', 'description', 'provider', 'amount', 'lines', 'customer'])
      .where('user_id', '=', userId).where('id', '=', id).where('number', 'is not', null).$narrowType<{ number: string }>()
      .executeTakeFirst();
    return row ? toApi(row) : null;
  }

  /** The language the customer chose (users.language), in which their invoices are printed. */
  async customerLanguage(userId: string): Promise<string | null> {
    const row = await this.db.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirst();
    return row?.language ?? null;
  }
}
