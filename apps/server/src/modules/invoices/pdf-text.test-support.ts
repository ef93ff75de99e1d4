import { inflateSync } from 'node:zlib';

/**
 * The parts of a PDF a test can read: the embedded font names, the document language, and every character the
 * fonts' ToUnicode maps declare — i.e. every character actually drawn (pdfkit writes text as glyph ids).
 */
export function inspectPdf(pdf: Buffer) {
  const raw = pdf.toString('latin1');
  const drawn = new Set<string>();
  for (const m of raw.matchAll(/stream\r?\n/g)) {
    const start = m.index + m[0].length;
    let text: string;
    try { text = inflateSync(pdf.subarray(start, raw.indexOf('endstream', start))).toString('latin1'); } catch { continue; }
    if (!text.includes('begincmap')) continue;
    // pdfkit writes `<first glyph> <last glyph> [<unicode> …]`: only the bracketed part is characters. (Reading the
    // glyph range too made a font of exactly 64 glyphs "draw" U+003F, `?`.)
    for (const [, list] of text.matchAll(/\[([^\]]*)\]/g)) {
      for (const [, hex] of list!.matchAll(/<([0-9a-f]{4})>/gi)) drawn.add(String.fromCodePoint(parseInt(hex!, 16)));
    }
  }
  return {
    fonts: [...new Set([...raw.matchAll(/\/BaseFont \/[A-Z]{6}\+(\S+)/g)].map((m) => m[1]!))].sort(),
    lang: /\/Lang \(([^)]*)\)/.exec(raw)?.[1],
    drew: (text: string) => [...text].filter((ch) => ch !== ' ').every((ch) => drawn.has(ch)),
    drawn,
  };
}
