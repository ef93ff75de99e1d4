import type { Language } from '@cellport/shared';
import type { Invoice } from '@cellport/shared/schemas/payments';
import { renderStored } from '../notifications/index.js';
import type { InvoiceNumbering } from './invoice-numbers.js';
import type { InvoiceRow, InvoiceSeller, InvoicesRepository } from './invoices.repository.js';

// The statements a payment's transaction issues its invoice with (they are the repository's; others take them here).
export { invoiceInsert, issueInvoice } from './invoices.repository.js';
export type { InvoiceDiscount, InvoiceLineInput } from './invoice-lines.js';

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

/** The seller kept on the document; the Cellport name stands in for a name the operator had not set then. */
function keptSeller(kept: InvoiceSeller): Invoice['seller'] {
  return { name: kept.name || 'Cellport', address: kept.address ?? '', taxId: kept.taxId ?? '' };
}

/** The customer's invoices (scoped by user id: another customer's invoice is simply not found). */
export class InvoicesService {
  constructor(private readonly repo: InvoicesRepository, private readonly numbering: InvoiceNumbering, private readonly currentSeller: CurrentSeller) {}

  private async withSellers(rows: InvoiceRow[], language?: Language): Promise<Invoice[]> {
    const now = rows.some((r) => r.seller === null) ? await this.currentSeller() : null;
    return rows.map((r) => toApi(r, r.seller ? keptSeller(r.seller) : now!, language));
  }

  /** `language`: the reader's, in which descriptions and lines are rendered (see toApi). */
  async list(userId: string, language?: Language): Promise<Invoice[]> {
    await this.numbering.settle();
    return this.withSellers(await this.repo.list(userId), language);
  }

  async get(userId: string, id: string, language?: Language): Promise<Invoice | null> {
    await this.numbering.settle();
    const row = await this.repo.one(userId, id);
    return row ? (await this.withSellers([row], language))[0]! : null;
  }

  /** The language the customer chose (users.language), in which their invoices are printed. */
  customerLanguage(userId: string): Promise<string | null> {
    return this.repo.customerLanguage(userId);
  }
}
