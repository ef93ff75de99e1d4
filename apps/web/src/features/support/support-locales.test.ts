import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localeLeaves as leaves, loadLocale as load, localeVariables as variables } from '../../lib/locale-files.test-support';

// support.json (issue 17): the same keys in en, ru and cn, none empty or left in English, the same {{variables}};
// and every support key the code names (also from the console, which shows the conversation) exists.
const en = new Map(leaves(load('en', 'support')));

describe('support.json', () => {
  it.each(['ru', 'cn'])('%s has the same keys as en, translated, with the same {{variables}}', (lng) => {
    const other = new Map(leaves(load(lng, 'support')));
    expect([...other.keys()].sort()).toEqual([...en.keys()].sort());
    for (const [key, text] of other) {
      expect(text.trim(), `${lng}:${key}`).not.toBe('');
      expect(variables(text), `${lng}:${key}`).toEqual(variables(en.get(key)!));
      if (en.get(key)!.split(' ').length > 2) expect(text, `${lng}:${key} is untranslated`).not.toBe(en.get(key));
    }
  });

  it('holds every key the support code names', () => {
    const sources = (dir: string): string[] => readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return sources(path);
      return /\.tsx$/.test(name) ? [path] : [];
    });
    const missing: string[] = [];
    const groups = new Set([...en.keys()].map((key) => key.split('.')[0]!));
    for (const file of sources(__dirname)) {
      const code = readFileSync(file, 'utf8');
      for (const match of code.matchAll(/\bt\('(?:support:)?([\w.]+)'/g)) {
        const key = match[1]!;
        if (groups.has(key.split('.')[0]!) && !en.has(key)) missing.push(`${key} (${file.slice(__dirname.length + 1)})`);
      }
      // Keys built from a value: every value they can take.
      if (code.includes('t(`attach.refused.${')) for (const p of ['type', 'size', 'empty', 'count']) if (!en.has(`attach.refused.${p}`)) missing.push(`attach.refused.${p}`);
      if (code.includes('t(`state.${viewer}.${state}`)')) {
        for (const v of ['customer', 'operator']) for (const s of ['open', 'waiting', 'closed']) if (!en.has(`state.${v}.${s}`)) missing.push(`state.${v}.${s}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
