import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

// DejaVu Sans covers Latin, Cyrillic and Greek but no CJK; Noto Sans SC (the Simplified Chinese WOFF of
// @fontsource/noto-sans-sc) covers CJK and Latin but no Cyrillic. pdfkit embeds only the glyphs used (a subset),
// and only the fonts a document actually selects. See docs/decisions/013-invoice-pdf-fonts.md.
const dejavuDir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const notoDir = join(dirname(require.resolve('@fontsource/noto-sans-sc/package.json')), 'files');

export const INVOICE_FONTS = {
  regular: join(dejavuDir, 'DejaVuSans.ttf'),
  bold: join(dejavuDir, 'DejaVuSans-Bold.ttf'),
  cjk: join(notoDir, 'noto-sans-sc-chinese-simplified-400-normal.woff'),
  'cjk-bold': join(notoDir, 'noto-sans-sc-chinese-simplified-700-normal.woff'),
} as const;

export type InvoiceFont = keyof typeof INVOICE_FONTS;

/** Han ideographs, CJK symbols and punctuation (、。「」), and full-width forms (：，（）). */
const CJK = /[\p{Script=Han}\u3000-\u303F\uFF00-\uFFEF]/u;

export const hasCjk = (text: string) => CJK.test(text);

/**
 * The font to draw one text run with: DejaVu unless the run holds a CJK character, then Noto Sans SC (which also
 * draws the Latin letters and digits of a mixed run, so the run stays in one font).
 */
export function fontFor(text: string, weight: 'regular' | 'bold' = 'regular'): InvoiceFont {
  if (hasCjk(text)) return weight === 'bold' ? 'cjk-bold' : 'cjk';
  return weight;
}
