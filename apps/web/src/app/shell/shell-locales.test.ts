import { describe, expect, it } from 'vitest';
import { localeLeaves as leaves, loadLocale as load, localeVariables as variables } from '../../lib/locale-files.test-support';

// The namespaces of the shell, the account page and the placeholder pages (plus common, which they extend).
const NAMESPACES = ['common', 'shell', 'account', 'pages'];

describe.each(NAMESPACES)('%s.json', (ns) => {
  const en = new Map(leaves(load('en', ns)));
  it.each(['ru', 'cn'])('%s has the same keys as en, none empty, with the same {{variables}}', (lng) => {
    const other = new Map(leaves(load(lng, ns)));
    expect([...other.keys()].sort()).toEqual([...en.keys()].sort());
    for (const [key, text] of other) {
      expect(text.trim(), `${lng}/${ns}:${key}`).not.toBe('');
      expect(variables(text), `${lng}/${ns}:${key}`).toEqual(variables(en.get(key)!));
    }
  });
});

describe('shell wording', () => {
  it('uses the spec texts for the loading overlay, the copy toast and the empty notifications list', () => {
    const common = load('en', 'common') as { loading: string; copied: string };
    const shell = load('en', 'shell') as { addFunds: string; notifications: { empty: string } };
    expect(common.loading).toBe('Loading your dashboard...');
    expect(common.copied).toBe('Copied!');
    expect(shell.addFunds).toBe('Add Funds');
    expect(shell.notifications.empty).toBe('No notifications yet');
  });
});
