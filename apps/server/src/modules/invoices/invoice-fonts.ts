import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { woffToSfnt } from './woff-to-sfnt.js';

const require = createRequire(import.meta.url);

// DejaVu Sans covers Latin, Cyrillic and Greek but no CJK; Noto Sans SC (the Simplified Chinese WOFF of
// @fontsource/noto-sans-sc) covers CJK and Latin but no Cyrillic. pdfkit embeds only the glyphs used (a subset),
// and only the fonts a document actually selects. See docs/decisions/013-invoice-pdf-fonts.md.
const dejavuDir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const notoDir = join(dirname(require.resolve('@fontsource/noto-sans-sc/package.json')), 'files');

export const INVOICE_FONT_FILES = {
  regular: join(dejavuDir, 'DejaVuSans.ttf'),
  bold: join(dejavuDir, 'DejaVuSans-Bold.ttf'),
  cjk: join(notoDir, 'noto-sans-sc-chinese-simplified-400-normal.woff'),
  'cjk-bold': join(notoDir, 'noto-sans-sc-chinese-simplified-700-normal.woff'),
} as const;

export type InvoiceFont = keyof typeof INVOICE_FONT_FILES;

let loaded: Record<InvoiceFont, Buffer> | undefined;

/** The font bytes pdfkit registers, read once (WOFF unpacked to sfnt, see woffToSfnt) and shared by every invoice. */
export function invoiceFonts(): Record<InvoiceFont, Buffer> {
  loaded ??= Object.fromEntries(Object.entries(INVOICE_FONT_FILES).map(([name, path]) => {
    const bytes = readFileSync(path);
    return [name, path.endsWith('.woff') ? woffToSfnt(bytes) : bytes];
  })) as Record<InvoiceFont, Buffer>;
  return loaded;
}

/** Han ideographs, CJK symbols and punctuation (、。「」), and full-width forms (：，（）). */
const CJK = /[\p{Script=Han}\u3000-\u303F\uFF00-\uFFEF]/u;

/** Printable ASCII: both fonts draw it, so it joins whichever run it sits in. */
const EITHER = /[\x20-\x7E]/;

export interface FontRun { text: string; font: InvoiceFont }

/**
 * Splits a text into runs that each font can draw: Chinese (and full-width punctuation) in Noto Sans SC,
 * everything else that is not plain ASCII (Cyrillic, Greek, accented Latin…) in DejaVu. ASCII goes with its
 * neighbours, so "王小明 Ltd." stays one CJK run and "Иван Петров" one DejaVu run; "ООО 北京" becomes two.
 */
export function fontRuns(text: string, weight: 'regular' | 'bold' = 'regular'): FontRun[] {
  const cjk: InvoiceFont = weight === 'bold' ? 'cjk-bold' : 'cjk';
  const runs: Array<{ text: string; font: InvoiceFont | null }> = [];
  for (const ch of text) {
    const needs = CJK.test(ch) ? cjk : EITHER.test(ch) ? null : weight;
    const last = runs.at(-1);
    if (last && (needs === null || last.font === needs || last.font === null)) {
      last.text += ch;
      last.font ??= needs;
    } else {
      runs.push({ text: ch, font: needs });
    }
  }
  return runs.map((r) => ({ text: r.text, font: r.font ?? weight }));
}
