import { MESSAGES } from '@cellport/shared/schemas/auth';
import type { TFunction } from '../../../lib/i18n';
import { describe, expect, it } from 'vitest';
import en from '../../../../../../packages/shared/locales/en/validation.json';
import { messageKey, translateMessage } from './message-key';

// A t() that answers from the English validation file and marks every lookup, so the test sees which key was used.
const t = ((key: string, options?: { defaultValue?: string }) => {
  const [ns, path] = key.split(':');
  if (ns === 'validation') return `[${(en as Record<string, string>)[path!] ?? options?.defaultValue}]`;
  return `<${key}>`;
}) as unknown as TFunction;

describe('messageKey', () => {
  it('maps every shared validation message back to its key', () => {
    for (const [key, message] of Object.entries(MESSAGES)) expect(messageKey(message)).toBe(key);
  });

  it('returns null for text that is not one of the shared messages', () => {
    expect(messageKey('Too big: expected string to have <=200 characters')).toBeNull();
    expect(messageKey('')).toBeNull();
  });
});

describe('translateMessage', () => {
  it('looks the message up in the validation namespace by its key', () => {
    expect(translateMessage(t, MESSAGES.passwordDigit)).toBe(`[${MESSAGES.passwordDigit}]`);
  });

  it('falls back to the generic line for messages zod made up', () => {
    expect(translateMessage(t, 'Invalid input')).toBe('<auth:form.invalid>');
  });
});

describe('validation.json', () => {
  it('translates every shared message, and nothing else, in each language', async () => {
    for (const language of ['en', 'ru', 'cn']) {
      const file = (await import(`../../../../../../packages/shared/locales/${language}/validation.json`)) as { default: object };
      expect(Object.keys(file.default).sort()).toEqual(Object.keys(MESSAGES).sort());
    }
  });
});
