import { LANGUAGES } from '@cellport/shared/constants';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { fontRuns, invoiceFonts, type InvoiceFont } from './invoice-fonts.js';
import { invoiceTexts, type InvoiceLabels } from './invoice-texts.js';

interface FontkitFont { hasGlyphForCodePoint(codePoint: number): boolean }
const fontkit = createRequire(import.meta.url)('fontkit') as { create(bytes: Buffer): FontkitFont };
const fonts = Object.fromEntries(Object.entries(invoiceFonts()).map(([name, bytes]) => [name, fontkit.create(bytes)])) as Record<InvoiceFont, FontkitFont>;

type Texts = string | { [key: string]: Texts };
const strings = (labels: InvoiceLabels | Texts): string[] =>
  (typeof labels === 'string' ? [labels] : Object.values(labels as Record<string, Texts>).flatMap((v) => strings(v)));

/** The characters of `text` that the fonts picked for their runs cannot draw (they would print as blanks). */
const missing = (text: string, weight: 'regular' | 'bold') =>
  fontRuns(text, weight).flatMap((run) => [...run.text].filter((ch) => !fonts[run.font].hasGlyphForCodePoint(ch.codePointAt(0)!)));
const fontsOf = (text: string, weight: 'regular' | 'bold' = 'regular') => fontRuns(text, weight).map((r) => r.font);

describe('fontRuns', () => {
  it('keeps DejaVu for Latin and Cyrillic, Noto Sans SC for Chinese, and ASCII with its neighbours', () => {
    expect(fontsOf('Invoice CP-2026-000001')).toEqual(['regular']);
    expect(fontsOf('Иван Петров', 'bold')).toEqual(['bold']);
    expect(fontsOf('王小明')).toEqual(['cjk']);
    expect(fontsOf('发票 CP-2026-000001', 'bold')).toEqual(['cjk-bold']);
    expect(fontsOf('Port 4G，1 month')).toEqual(['cjk']); // a full-width comma needs the CJK font; the ASCII joins it
    expect(fontRuns('ООО «Ромашка» 北京分公司 Ltd.')).toEqual([
      { text: 'ООО «Ромашка» ', font: 'regular' }, { text: '北京分公司 Ltd.', font: 'cjk' },
    ]);
    expect(fontRuns('')).toEqual([]);
    expect(fontsOf('Total: $1,234.56')).toEqual(['regular']); // ASCII punctuation is not CJK
  });

  it('every invoice label, in every language, is drawn by a font that has all its glyphs', () => {
    for (const lng of LANGUAGES) {
      const texts = invoiceTexts(lng);
      const runs = [
        ...strings(texts.labels), texts.issued('2026-11-22T10:00:00Z'), texts.money('-1234560000'), texts.paidBy('card'),
        texts.purchaseLine('Dedicated · Month', 'United States', 'AT&T'), texts.renewalLine('Proxy 3', 'Shared · Week', 10), texts.discountLine('SPRING25'),
      ];
      for (const run of runs) {
        expect(missing(run, 'regular'), `${lng}: ${run}`).toEqual([]);
        expect(missing(run, 'bold'), `${lng}: ${run}`).toEqual([]);
      }
    }
  });

  it('mixed Chinese and Latin customer data prints entirely in the CJK font', () => {
    for (const run of ['北京科技有限公司 Ltd.', '独享 4G 端口，1 个月', 'wang@example.com 王']) expect(missing(run, 'regular')).toEqual([]);
    // Cyrillic and Chinese in one string: each part in the font that has it (Noto Sans SC has no Cyrillic).
    expect(missing('Иван 王', 'regular')).toEqual([]);
    expect(missing('Иван Петров, 北京科技 — Ltd.', 'bold')).toEqual([]);
  });
});
