import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import PDFDocument from 'pdfkit';
import type { Invoice } from '@cellport/shared/schemas/payments';

const require = createRequire(import.meta.url);
// DejaVu Sans (shipped by the dejavu-fonts-ttf package, embedded as a subset) covers Latin, Cyrillic and Greek, so
// Russian names print as written. It has no CJK glyphs: Chinese characters are replaced by '?' rather than printed
// as blank boxes (see `printable`), and the invoice number, amounts and dates stay readable in every language.
const fontDir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const REGULAR = join(fontDir, 'DejaVuSans.ttf');
const BOLD = join(fontDir, 'DejaVuSans-Bold.ttf');

/** Characters DejaVu Sans cannot draw (CJK and beyond the Basic Multilingual Plane's non-European blocks) → '?'. */
const printable = (text: string) => text.replace(/[\u2E80-\uFFEF\u{10000}-\u{10FFFF}]/gu, '?');

const money = (micro: string) => {
  const v = BigInt(micro);
  const abs = v < 0n ? -v : v;
  const cents = abs / 10_000n;
  return `${v < 0n ? '-' : ''}$${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
};

const PROVIDERS: Record<string, string> = { card: 'Card', crypto: 'Crypto', paypal: 'PayPal', balance: 'Account balance' };

/** A printable one-page A4 invoice. Resolves with the PDF bytes. */
export function renderInvoicePdf(invoice: Invoice, seller: { name: string; url: string }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4', margin: 50,
      info: { Title: `Invoice ${invoice.number}`, Author: seller.name, CreationDate: new Date(invoice.issuedAt) },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.registerFont('regular', REGULAR);
    doc.registerFont('bold', BOLD);

    doc.font('bold').fontSize(20).text(`Invoice ${invoice.number}`);
    doc.font('regular').fontSize(10).fillColor('#444')
      .text(`Issued ${invoice.issuedAt.slice(0, 10)} · Paid by ${PROVIDERS[invoice.provider] ?? invoice.provider}`);
    doc.moveDown();
    doc.fillColor('#000').font('bold').text(seller.name).font('regular').text(seller.url);
    doc.moveDown();
    doc.font('bold').text('Billed to');
    doc.font('regular').text(printable(invoice.customer.name));
    if (invoice.customer.company_name) doc.text(printable(invoice.customer.company_name));
    doc.text(invoice.customer.email);
    doc.moveDown().font('regular').text(printable(invoice.description));
    doc.moveDown();

    const cols = { desc: 50, qty: 330, unit: 380, amount: 470 };
    const header = doc.y;
    doc.font('bold')
      .text('Description', cols.desc, header).text('Qty', cols.qty, header)
      .text('Unit', cols.unit, header).text('Amount', cols.amount, header, { width: 75, align: 'right' });
    doc.moveTo(50, doc.y + 2).lineTo(545, doc.y + 2).stroke();
    doc.font('regular');
    for (const line of invoice.lines) {
      const y = doc.y + 6;
      doc.text(printable(line.description), cols.desc, y, { width: 270 });
      const after = doc.y;
      doc.text(String(line.quantity), cols.qty, y).text(money(line.unitAmount), cols.unit, y)
        .text(money(line.amount), cols.amount, y, { width: 75, align: 'right' });
      doc.y = Math.max(after, doc.y);
    }
    doc.moveTo(50, doc.y + 4).lineTo(545, doc.y + 4).stroke();
    doc.moveDown().font('bold').text(`Total paid: ${money(invoice.amount)} ${invoice.currency}`, 50, doc.y + 8, { width: 495, align: 'right' });
    doc.end();
  });
}
