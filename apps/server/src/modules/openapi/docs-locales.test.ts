import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsOperationKey } from '@cellport/shared/docs-keys';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';

// Issue 14, item 4: the Documentation page reads its API reference from GET /api/v1/openapi.json, which stays in
// English; the groups, their descriptions and each operation's summary come from the docs locale in en, ru and cn.
// A route added to the published document without its texts fails here, naming the missing keys.
const localesDir = join(dirname(createRequire(import.meta.url).resolve('@cellport/shared/package.json')), 'locales');
const LANGUAGES = ['en', 'ru', 'cn'] as const;
const SCRIPT = { en: /[a-z]/i, ru: /[а-яё]/i, cn: /[\u4e00-\u9fff]/ } as const;
type Doc = { tags?: Array<{ name: string }>; paths: Record<string, Record<string, { tags?: string[]; responses?: Record<string, unknown> }>> };

let t: TestApp;
let doc: Doc;
beforeAll(async () => {
  t = await buildTestApp();
  doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
});
afterAll(async () => { await t.close(); });

const lookup = (tree: unknown, key: string): unknown => key.split('.').reduce<unknown>((node, part) =>
  (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), tree);
const docs = Object.fromEntries(LANGUAGES.map((lng) => [lng, JSON.parse(readFileSync(join(localesDir, lng, 'docs.json'), 'utf8')) as unknown]));

describe('the API reference in every language', () => {
  it('has a title and a description for every group, and a summary for every grouped operation, written in that language', () => {
    const tags = new Set((doc.tags ?? []).map((tag) => tag.name));
    const keys: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        // Untagged routes (the dashboard's own session pages) sit in a closed "Other endpoints" group, path only.
        const tag = op.tags?.[0];
        if (!tag) continue;
        tags.add(tag);
        keys.push(`reference.operations.${docsOperationKey(method, path)}`);
      }
    }
    for (const tag of tags) keys.push(`reference.tags.${tag}.title`, `reference.tags.${tag}.description`);
    expect(keys.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const lng of LANGUAGES) {
      for (const key of keys) {
        const text = lookup(docs[lng], key);
        // Titles may be a name ("Telegram"); descriptions and summaries must be in the language itself.
        const written = typeof text === 'string' && text.trim() !== '' && (key.endsWith('.title') || SCRIPT[lng].test(text));
        if (!written) missing.push(`${lng}: ${key}`);
      }
    }
    expect(missing, 'add these to packages/shared/locales/{en,ru,cn}/docs.json').toEqual([]);
  });

  it('names every response status the document uses, with a fallback for others', () => {
    const statuses = new Set(Object.values(doc.paths).flatMap((item) => Object.values(item).flatMap((op) => Object.keys(op.responses ?? {}))));
    for (const lng of LANGUAGES) {
      expect(lookup(docs[lng], 'reference.statuses.other'), lng).toBeTruthy();
      for (const status of statuses) expect(lookup(docs[lng], `reference.statuses.${status}`), `${lng}: reference.statuses.${status}`).toBeTruthy();
    }
  });
});
