// The invoices' face (decision 044), begun for the purchases that issue them; invoices is not yet a domain itself
// (not-yet-domains.json).
export { purchaseDescription, purchaseLineText, renewalDescription, renewalLineText } from './invoice-lines.js';
export { invoiceTexts } from './invoice-texts.js';
export { invoiceInsert, issueInvoice, type InvoiceLineInput } from './invoices.service.js';
