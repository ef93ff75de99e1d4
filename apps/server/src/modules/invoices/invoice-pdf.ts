import PDFDocument from 'pdfkit';
import type { Invoice } from '@cellport/shared/schemas/payments';
import { fontRuns, invoiceFonts } from './invoice-fonts.js';
import { invoiceTexts } from './invoice-texts.js';

type Doc = InstanceType<typeof PDFDocument>;
type TextOptions = PDFKit.Mixins.TextOptions;

/**
 * Draws a text as runs in the fonts that can print them (see fontRuns), continued on one line, so neither
 * Chinese nor Cyrillic turns into blanks or '?'.
 */
function write(doc: Doc, text: string, weight: 'regular' | 'bold', at?: { x: number; y: number }, options?: TextOptions): Doc {
  const runs = fontRuns(text, weight);
  if (!runs.length) runs.push({ text: '', font: weight });
  runs.forEach((run, i) => {
    doc.font(run.font);
    const runOptions = { ...options, continued: i < runs.length - 1 };
    if (i === 0 && at) doc.text(run.text, at.x, at.y, runOptions);
    else doc.text(run.text, runOptions);
  });
  return doc;
}

// Columns of the lines table (A4 is 595pt wide; margins 50).
const COLS = {
  desc: { x: 50, width: 245 },
  qty: { x: 300, width: 50 },
  unit: { x: 355, width: 95 },
  amount: { x: 455, width: 90 },
} as const;

/**
 * A printable one-page A4 invoice or receipt in the customer's language, with the seller's legal details (the
 * console's) and the buyer's company, address and VAT number. Resolves with the PDF bytes.
 */
export function renderInvoicePdf(invoice: Invoice, site: { url: string }, language?: string | null): Promise<Buffer> {
  const t = invoiceTexts(language);
  const l = t.labels;
  const receipt = invoice.document === 'receipt';
  const { seller, customer } = invoice;
  const title = t.title(invoice.number, invoice.document);
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4', margin: 50, lang: { en: 'en-US', ru: 'ru-RU', cn: 'zh-CN' }[t.language],
      info: { Title: title, Author: seller.name, CreationDate: new Date(invoice.issuedAt) },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    for (const [name, bytes] of Object.entries(invoiceFonts())) doc.registerFont(name, bytes);

    doc.fontSize(20);
    write(doc, title, 'bold');
    doc.fontSize(10).fillColor('#444');
    write(doc, `${t.issued(invoice.issuedAt)} · ${t.paidBy(invoice.provider)}`, 'regular');
    doc.moveDown().fillColor('#000');

    // Seller and buyer side by side, each as many lines as it has.
    const top = doc.y;
    const party = (x: number, heading: string, lines: string[]) => {
      write(doc, heading, 'bold', { x, y: top }, { width: 235 });
      for (const line of lines.filter(Boolean)) write(doc, line, 'regular', { x, y: doc.y }, { width: 235 });
      return doc.y;
    };
    const sellerEnd = party(50, l.seller, [seller.name, seller.address, seller.taxId ? t.taxId(seller.taxId) : '', site.url]);
    const buyerEnd = party(310, receipt ? l.receivedFrom : l.billedTo, [
      customer.company_name, customer.name, customer.address, customer.vat_number ? t.vatNumber(customer.vat_number) : '', customer.email,
    ]);
    doc.x = 50;
    doc.y = Math.max(sellerEnd, buyerEnd);
    doc.moveDown();
    write(doc, invoice.description, 'regular');
    doc.moveDown();

    const header = doc.y;
    write(doc, l.description, 'bold', { x: COLS.desc.x, y: header }, { width: COLS.desc.width });
    write(doc, l.quantity, 'bold', { x: COLS.qty.x, y: header }, { width: COLS.qty.width, align: 'right' });
    write(doc, l.unitPrice, 'bold', { x: COLS.unit.x, y: header }, { width: COLS.unit.width, align: 'right' });
    write(doc, l.amount, 'bold', { x: COLS.amount.x, y: header }, { width: COLS.amount.width, align: 'right' });
    doc.moveTo(50, doc.y + 2).lineTo(545, doc.y + 2).stroke();
    for (const line of invoice.lines) {
      const y = doc.y + 6;
      write(doc, line.description, 'regular', { x: COLS.desc.x, y }, { width: COLS.desc.width });
      const after = doc.y;
      write(doc, t.quantity(line.quantity), 'regular', { x: COLS.qty.x, y }, { width: COLS.qty.width, align: 'right' });
      write(doc, t.money(line.unitAmount), 'regular', { x: COLS.unit.x, y }, { width: COLS.unit.width, align: 'right' });
      write(doc, t.money(line.amount), 'regular', { x: COLS.amount.x, y }, { width: COLS.amount.width, align: 'right' });
      doc.y = Math.max(after, doc.y);
    }
    doc.moveTo(50, doc.y + 4).lineTo(545, doc.y + 4).stroke();
    write(doc, receipt ? t.totalReceived(invoice.amount) : t.total(invoice.amount), 'bold', { x: 50, y: doc.y + 12 }, { width: 495, align: 'right' });
    // What this document is, said on it (decision 038): a receipt is not an invoice; an invoice paid from the balance
    // is the one document for that money.
    const note = receipt ? l.receiptNote : invoice.provider === 'balance' ? l.balanceNote : null;
    if (note) {
      doc.moveDown(1.5).fontSize(9).fillColor('#222');
      write(doc, note, 'regular', { x: 50, y: doc.y }, { width: 495 });
    }
    doc.moveDown(2).fontSize(8).fillColor('#666');
    write(doc, receipt ? l.receiptFooter : l.footer, 'regular', { x: 50, y: doc.y }, { width: 495 });
    doc.end();
  });
}
