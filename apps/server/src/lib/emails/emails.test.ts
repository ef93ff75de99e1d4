import { ERRORS } from '@cellport/shared';
import { LANGUAGES } from '@cellport/shared/constants';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderLinkEmail } from './render.js';

const localesDir = join(dirname(createRequire(import.meta.url).resolve('@cellport/shared/package.json')), 'locales');
const read = (lng: string, ns: string) => JSON.parse(readFileSync(join(localesDir, lng, `${ns}.json`), 'utf8')) as Record<string, unknown>;
const keysOf = (o: unknown, prefix = ''): string[] =>
  typeof o === 'object' && o !== null
    ? Object.entries(o).flatMap(([k, v]) => keysOf(v, `${prefix}${k}.`))
    : [prefix.slice(0, -1)];

describe('locales owned by accounts', () => {
  it('errors.json translates every error code, in every language, and nothing else', () => {
    for (const lng of LANGUAGES) {
      const errors = read(lng, 'errors');
      expect(Object.keys(errors).sort(), lng).toEqual(Object.keys(ERRORS).sort());
      for (const [code, text] of Object.entries(errors)) expect(typeof text === 'string' && text.length > 0, `${lng}.${code}`).toBe(true);
    }
    expect(read('en', 'errors')).toEqual(ERRORS);
  });
  it('emails.json has the same keys in every language', () => {
    const en = keysOf(read('en', 'emails')).sort();
    for (const lng of LANGUAGES) expect(keysOf(read(lng, 'emails')).sort(), lng).toEqual(en);
  });
});

describe('renderLinkEmail', () => {
  const link = 'http://localhost:3000/api/v1/verify-email/abc_DEF-123';

  it('renders the confirmation e-mail in each language, HTML and text, with the link', () => {
    const subjects = new Set<string>();
    for (const lng of LANGUAGES) {
      const m = renderLinkEmail({ kind: 'confirm', language: lng, to: 'a@b.co', name: 'Ann', link });
      subjects.add(m.subject);
      expect(m.to).toBe('a@b.co');
      expect(m.text).toContain(link);
      expect(m.text).toContain('Ann');
      expect(m.html).toContain(`href="${link}"`);
      expect(m.html).toContain('<!doctype html>');
    }
    expect(subjects.size).toBe(3);
    expect(renderLinkEmail({ kind: 'reset', language: 'ru', to: 'a@b.co', name: 'A', link }).subject).toBe('Сброс пароля Cellport');
  });

  it('escapes the name in HTML and falls back to English for an unknown language', () => {
    const m = renderLinkEmail({ kind: 'reset', language: 'xx', to: 'a@b.co', name: '<script>x</script>', link });
    expect(m.html).not.toContain('<script>');
    expect(m.html).toContain('&lt;script&gt;');
    expect(m.subject).toBe('Reset your Cellport password');
  });
});
