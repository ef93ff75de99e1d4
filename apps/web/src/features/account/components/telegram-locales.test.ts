import { TELEGRAM_NOTIFICATION_KINDS, TELEGRAM_OPERATOR_KINDS } from '@cellport/shared/schemas/telegram';
import { describe, expect, it } from 'vitest';
import { localeLeaves as leaves, loadLocale as load, localeVariables as variables } from '../../../lib/locale-files.test-support';

// The Account page's Telegram card, the console's Telegram settings and the bot's answers (issue 16).

describe('telegram.json', () => {
  const en = new Map(leaves(load('en', 'telegram')));
  it('names every notification kind, and each is a notification key', () => {
    const notifications = load('en', 'notifications');
    for (const kind of TELEGRAM_NOTIFICATION_KINDS) {
      expect(en.get(`kind.${kind}`), kind).toBeTruthy();
      expect(notifications[kind], kind).toBeTruthy();
    }
  });
  it('offers every notification a customer can get (a new kind must be choosable, or left out here on purpose)', () => {
    // Operators' alerts are not a customer's; descriptions are parts of other texts, not notifications; a text for a
    // cause (`modem_down_host_silent`, `port_replaced_address_kept`) is its kind's told another way, not a kind of its own;
    // `port_default_name` is the text of a default port name ("Proxy {{number}}", issue 27 item 12), not a notification.
    const customerKinds = Object.keys(load('en', 'notifications'))
      .filter((key) => !key.startsWith('operator_modems_') && !key.endsWith('_description') && !key.endsWith('_host_silent') && !key.endsWith('_address_kept'))
      .filter((key) => key !== 'port_default_name')
      .filter((key) => !(TELEGRAM_OPERATOR_KINDS as readonly string[]).includes(key));
    expect([...TELEGRAM_NOTIFICATION_KINDS].sort()).toEqual(customerKinds.sort());
  });
  it.each(['ru', 'cn'])('%s has the same keys as en, none empty, with the same {{variables}}', (lng) => {
    const other = new Map(leaves(load(lng, 'telegram')));
    expect([...other.keys()].sort()).toEqual([...en.keys()].sort());
    for (const [key, text] of other) {
      expect(text.trim(), key).not.toBe('');
      expect(variables(text), key).toEqual(variables(en.get(key)!));
    }
  });
});
