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

/** A printable one-page A4 invoice in the customer's language. Resolves with the PDF bytes. */
export function renderInvoicePdf(invoice: Invoice, seller: { name: string; url: string }, language?: string | null): Promise<Buffer> {
  const t = invoiceTexts(language);
  const l = t.labels;
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4', margin: 50, lang: { en: 'en-US', ru: 'ru-RU', cn: 'zh-CN' }[t.language],
      info: { Title: t.title(invoice.number), Author: seller.name, CreationDate: new Date(invoice.issuedAt) },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    for (const [name, bytes] of Object.entries(invoiceFonts())) doc.registerFont(name, bytes);

    doc.fontSize(20);
    write(doc, t.title(invoice.number), 'bold');
    doc.fontSize(10).fillColor('#444');
    write(doc, `${t.issued(invoice.issuedAt)} · ${t.paidBy(invoice.provider)}`, 'regular');
    doc.moveDown().fillColor('#000');

    write(doc, l.seller, 'bold');
    write(doc, seller.name, 'regular');
    write(doc, seller.url, 'regular');
    doc.moveDown();
    write(doc, l.billedTo, 'bold');
    write(doc, invoice.customer.name, 'regular');
    if (invoice.customer.company_name) write(doc, invoice.customer.company_name, 'regular');
    write(doc, invoice.customer.email, 'regular');
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
    write(doc, t.total(invoice.amount), 'bold', { x: 50, y: doc.y + 12 }, { width: 495, align: 'right' });
    doc.moveDown(2).fontSize(8).fillColor('#666');
    write(doc, l.footer, 'regular', { x: 50, y: doc.y }, { width: 495 });
    doc.end();
  });
}
