/** 'CP-2026-000123'. The numbering writes the same two formats in SQL (invoices.repository.ts, numberText). */
export const invoiceNumber = (year: number, seq: number) => `CP-${year}-${String(seq).padStart(6, '0')}`;
/** 'CP-R-2026-000045': receipts have their own series, so the invoices' stays gap-free (decision 038). */
export const receiptNumber = (year: number, seq: number) => `CP-R-${year}-${String(seq).padStart(6, '0')}`;
