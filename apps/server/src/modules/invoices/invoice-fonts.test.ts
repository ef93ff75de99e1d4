import { LANGUAGES } from '@cellport/shared/constants';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { fontFor, hasCjk, invoiceFonts, type InvoiceFont } from './invoice-fonts.js';
import { invoiceTexts, type InvoiceLabels } from './invoice-texts.js';

interface FontkitFont { hasGlyphForCodePoint(codePoint: number): boolean }
const fontkit = createRequire(import.meta.url)('fontkit') as { create(bytes: Buffer): FontkitFont };
const fonts = Object.fromEntries(Object.entries(invoiceFonts()).map(([name, bytes]) => [name, fontkit.create(bytes)])) as Record<InvoiceFont, FontkitFont>;

const strings = (labels: InvoiceLabels): string[] =>
  Object.values(labels).flatMap((v) => (typeof v === 'string' ? [v] : Object.values(v)));

/** The characters of `text` the font picked for it cannot draw (they would print as blanks). */
const missing = (text: string, weight: 'regular' | 'bold') =>
  [...text].filter((ch) => !fonts[fontFor(text, weight)].hasGlyphForCodePoint(ch.codePointAt(0)!));

describe('fontFor', () => {
  it('keeps DejaVu for Latin and Cyrillic, switches to Noto Sans SC when a run holds Chinese', () => {
    expect(fontFor('Invoice CP-2026-000001')).toBe('regular');
    expect(fontFor('Иван Петров', 'bold')).toBe('bold');
    expect(fontFor('王小明')).toBe('cjk');
    expect(fontFor('发票 CP-2026-000001', 'bold')).toBe('cjk-bold');
    expect(fontFor('Port 4G，1 month')).toBe('cjk'); // a full-width comma alone needs the CJK font
    expect(hasCjk('Total: $1,234.56')).toBe(false);
  });

  it('every invoice label, in every language, is drawn by a font that has all its glyphs', () => {
    for (const lng of LANGUAGES) {
      const texts = invoiceTexts(lng);
      const runs = [...strings(texts.labels), texts.issued('2026-11-22T10:00:00Z'), texts.money('-1234560000'), texts.paidBy('card')];
      for (const run of runs) {
        expect(missing(run, 'regular'), `${lng}: ${run}`).toEqual([]);
        expect(missing(run, 'bold'), `${lng}: ${run}`).toEqual([]);
      }
    }
  });

  it('mixed Chinese and Latin customer data prints entirely in the CJK font', () => {
    for (const run of ['北京科技有限公司 Ltd.', '独享 4G 端口，1 个月', 'wang@example.com 王']) expect(missing(run, 'regular')).toEqual([]);
    // Known limit: one run mixing Cyrillic and Chinese loses its Cyrillic letters (Noto Sans SC has none).
    expect(missing('Иван 王', 'regular')).toEqual([...'Иван']);
  });
});
