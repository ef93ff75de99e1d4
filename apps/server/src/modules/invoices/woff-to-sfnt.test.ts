import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { INVOICE_FONT_FILES } from './invoice-fonts.js';
import { woffToSfnt } from './woff-to-sfnt.js';

interface FontkitFont { postscriptName: string; numGlyphs: number; layout(text: string): { glyphs: Array<{ id: number; advanceWidth: number }> } }
const fontkit = createRequire(import.meta.url)('fontkit') as { create(bytes: Buffer): FontkitFont };

describe('woffToSfnt', () => {
  it('unpacks the Noto Sans SC WOFF into a TrueType font with the same glyphs and metrics', () => {
    const woff = readFileSync(INVOICE_FONT_FILES.cjk);
    const sfnt = woffToSfnt(woff);
    expect(sfnt.readUInt32BE(0)).toBe(woff.readUInt32BE(4)); // the flavour (0x00010000 for TrueType)
    const [a, b] = [fontkit.create(woff), fontkit.create(sfnt)];
    expect(b.postscriptName).toBe(a.postscriptName);
    expect(b.numGlyphs).toBe(a.numGlyphs);
    const run = (f: FontkitFont) => f.layout('发票 CP-2026 实付总额').glyphs.map((g) => [g.id, g.advanceWidth]);
    expect(run(b)).toEqual(run(a));
  });

  it('refuses bytes that are not WOFF 1.0', () => {
    expect(() => woffToSfnt(readFileSync(INVOICE_FONT_FILES.regular))).toThrow(/not a WOFF/);
  });
});
