import { describe, expect, it } from 'vitest';
import { localeLeaves as leaves, loadLocale as load, localeVariables as variables } from '../../lib/locale-files.test-support';

// The namespaces of issue 5's pages: notifications bell, dashboard, traffic, documentation.
const NAMESPACES = ['notifications-ui', 'dashboard', 'traffic', 'docs'];

describe.each(NAMESPACES)('%s.json', (ns) => {
  const en = new Map(leaves(load('en', ns)));
  it.each(['ru', 'cn'])('%s has the same keys as en, none empty or left in English, with the same {{variables}}', (lng) => {
    const other = new Map(leaves(load(lng, ns)));
    expect([...other.keys()].sort()).toEqual([...en.keys()].sort());
    for (const [key, text] of other) {
      expect(text.trim(), `${lng}/${ns}:${key}`).not.toBe('');
      expect(variables(text), `${lng}/${ns}:${key}`).toEqual(variables(en.get(key)!));
      // Short technical words (In/Out are not) may match; whole English sentences may not.
      if (en.get(key)!.split(' ').length > 2) expect(text, `${lng}/${ns}:${key} is untranslated`).not.toBe(en.get(key));
    }
  });
});
