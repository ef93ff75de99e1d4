import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// docs/decisions/README.md lists every decision record with its title and status (issue 29, item 6): a record added,
// renamed or superseded without its line in the index fails here.
const dir = new URL('../docs/decisions/', import.meta.url);

describe('the index of decision records', () => {
  it('lists each record by number, title and status, and nothing else', () => {
    const records = readdirSync(dir).filter((f) => /^\d{3}-.+\.md$/.test(f) && !f.startsWith('000-')).sort();
    expect(records.length).toBeGreaterThanOrEqual(30);
    const expected = records.map((file) => {
      const text = readFileSync(new URL(file, dir), 'utf8');
      const title = /^# (\d{3})\s*[:—-]+\s*(.+)$/m.exec(text);
      const status = /^- Status: (.+)$/m.exec(text);
      expect(title, `${file}: a "# NNN: Title" first line`).not.toBeNull();
      expect(status, `${file}: a "- Status:" line`).not.toBeNull();
      return `| [${title![1]}](${file}) | ${title![2]!.trim()} | ${status![1]!.trim()} |`;
    });
    const index = readFileSync(new URL('README.md', dir), 'utf8').split('\n').filter((line) => /^\| \[\d{3}\]/.test(line));
    expect(index).toEqual(expected);
  });
});
