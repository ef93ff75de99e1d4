import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT } from '@cellport/shared/schemas/webhooks';
import { describe, expect, it } from 'vitest';
import { localeLeaves as leaves, loadLocale as load, localeVariables as variables } from '../../../lib/locale-files.test-support';

// The Account page's webhooks section (issue 16) and the notification and error it adds.

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
