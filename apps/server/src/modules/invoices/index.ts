// Invoices and receipts (decision 044): issued in the transaction of the payment they document, numbered gap-free
// just after it commits, read by their customer in the reader's language and printed as PDF.
export {
  discountLineText, purchaseDescription, purchaseLineText, renewalDescription, renewalLineText, topUpDescription,
  type InvoiceDiscount, type InvoiceLineInput,
} from './invoice-lines.js';
export { InvoiceNumbering } from './invoice-numbers.js';
export { invoiceTexts } from './invoice-texts.js';
export { invoiceInsert, InvoicesRepository, issueInvoice } from './invoices.repository.js';
export { registerInvoices } from './invoices.routes.js';
export { InvoicesService, type CurrentSeller } from './invoices.service.js';
