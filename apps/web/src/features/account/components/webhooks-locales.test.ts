import { readFileSync } from 'node:fs';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT } from '@cellport/shared/schemas/webhooks';
import { describe, expect, it } from 'vitest';

// The Account page's webhooks section (issue 16) and the notification and error it adds.
const load = (lng: string, ns: string) =>
  JSON.parse(readFileSync(new URL(`../../../../../../packages/shared/locales/${lng}/${ns}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;
const leaves = (value: object, prefix = ''): Array<[string, string]> =>
  Object.entries(value).flatMap(([key, inner]) =>
    inner && typeof inner === 'object' ? leaves(inner as object, `${prefix}${key}.`) : [[`${prefix}${key}`, String(inner)] as [string, string]]);
const variables = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('webhooks.json', () => {
  const en = new Map(leaves(load('en', 'webhooks')));
  it('names every event type', () => {
    for (const type of [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT]) expect(en.get(`event.${type}`), type).toBeTruthy();
  });
  it.each(['ru', 'cn'])('%s has the same keys as en, none empty, with the same {{variables}}; and the notification and error', (lng) => {
    const other = new Map(leaves(load(lng, 'webhooks')));
    expect([...other.keys()].sort()).toEqual([...en.keys()].sort());
    for (const [key, text] of other) {
      expect(text.trim(), key).not.toBe('');
      expect(variables(text), key).toEqual(variables(en.get(key)!));
    }
    expect(load(lng, 'notifications').webhook_disabled).toContain('{{url}}');
    expect(load(lng, 'errors').WEBHOOKS_LIMIT).toBeTruthy();
  });
});
