import { sql, type RawBuilder } from 'kysely';
import type { Language } from '@cellport/shared';
import type { Invoice } from '@cellport/shared/schemas/payments';
import type { Database, Tx } from '../../db/database.js';
import type { InvoiceCustomer, InvoiceLineRow, InvoiceSeller, StoredText } from '../../db/tables/payments.js';
import { renderStored, type ServerText } from '../notifications/index.js';
import type { InvoiceNumbering } from './invoice-numbers.js';
import { discountLineText } from './invoice-lines.js';
import { invoiceTexts } from './invoice-texts.js';

/** `description` in the buyer's language now; `text`, when given, renders the line in each reader's language. */
export interface InvoiceLineInput { description: string; text?: ServerText; quantity: number; unitAmount: bigint; amount: bigint }
/** A coupon's discount, printed as its own negative line in the buyer's language. */
export interface InvoiceDiscount { amount: bigint; coupon: string | null; lng: string }

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

type InvoiceRow = {
  id: string; number: string; payment_id: string; issued_at: Date; description: string; description_text: StoredText | null;
  provider: string; amount: bigint; lines: InvoiceLineRow[]; customer: InvoiceCustomer; document: Invoice['document'];
  seller: InvoiceSeller | null;
};

/** The seller of the moment, for documents issued before sellers were kept on them (seller is null there). */
export type CurrentSeller = () => Promise<Invoice['seller']>;

/**
 * An invoice as the API (and the PDF) shows it: its description and lines in `language` when given and stored as
 * texts (issue 14, item 3); otherwise, and for invoices issued before, as written in the buyer's language then.
 */
const toApi = (r: InvoiceRow, seller: Invoice['seller'], language?: Language): Invoice => ({
  _id: r.id, number: r.number, document: r.document, seller, paymentId: r.payment_id, issuedAt: r.issued_at.toISOString(),
  description: language ? renderStored(language, r.description_text, r.description) : r.description,
  provider: r.provider as Invoice['provider'], amount: r.amount.toString(), currency: 'USD',
  lines: r.lines.map((l) => ({
    description: language ? renderStored(language, l.text, l.description) : l.description,
    quantity: l.quantity, unitAmount: l.unitAmount, amount: l.amount,
  })),
  customer: {
    name: r.customer.name, email: r.customer.email, company_name: r.customer.company_name,
    address: r.customer.address ?? '', vat_number: r.customer.vat_number ?? '',
  },
});

const COLUMNS = [
  'id', 'number', 'payment_id', 'issued_at', 'description', 'description_text', 'provider', 'amount', 'lines', 'customer',
  'document', 'seller',
] as const;

/** The seller kept on the document; the Cellport name stands in for a name the operator had not set then. */
function keptSeller(kept: InvoiceSeller): Invoice['seller'] {
  return { name: kept.name || 'Cellport', address: kept.address ?? '', taxId: kept.taxId ?? '' };
}

/** The customer's invoices (scoped by user id: another customer's invoice is simply not found). */
export class InvoicesService {
  constructor(private readonly db: Database, private readonly numbering: InvoiceNumbering, private readonly currentSeller: CurrentSeller) {}

  private async withSellers(rows: InvoiceRow[], language?: Language): Promise<Invoice[]> {
    const now = rows.some((r) => r.seller === null) ? await this.currentSeller() : null;
    return rows.map((r) => toApi(r, r.seller ? keptSeller(r.seller) : now!, language));
  }

  /** `language`: the reader's, in which descriptions and lines are rendered (see toApi). */
  async list(userId: string, language?: Language): Promise<Invoice[]> {
    await this.numbering.settle();
    const rows = await this.db.selectFrom('invoices').select(COLUMNS)
      .where('user_id', '=', userId).where('number', 'is not', null).$narrowType<{ number: string }>()
      .orderBy('issued_at', 'desc').orderBy('number', 'desc').limit(1000).execute();
    return this.withSellers(rows, language);
  }

  async get(userId: string, id: string, language?: Language): Promise<Invoice | null> {
    await this.numbering.settle();
    const row = await this.db.selectFrom('invoices').select(COLUMNS)
      .where('user_id', '=', userId).where('id', '=', id).where('number', 'is not', null).$narrowType<{ number: string }>()
      .executeTakeFirst();
    return row ? (await this.withSellers([row], language))[0]! : null;
  }

  /** The language the customer chose (users.language), in which their invoices are printed. */
  async customerLanguage(userId: string): Promise<string | null> {
    const row = await this.db.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirst();
    return row?.language ?? null;
  }
}
