import { ERRORS } from '@cellport/shared/errors';
import { initI18n, type TFunction } from '../../../lib/i18n';
import { loadLocale } from '../../../lib/locale-files.test-support';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { errorCode, translateError } from './translate-error';

const t = ((key: string) => `<${key}>`) as unknown as TFunction;

// The codes and their English texts come from the `errors` namespace the page loads first (lib/error-texts.ts): load
// the real locale files as the browser would from the server.
beforeAll(async () => {
  vi.stubGlobal('fetch', async (url: string) => {
    const [, lng, ns] = /\/locales\/(\w+)\/([\w-]+)\.js$/.exec(url)!;
    return new Response(JSON.stringify(loadLocale(lng!, ns!)));
  });
  await initI18n('en');
  vi.unstubAllGlobals();
});

describe('errorCode', () => {
  it('prefers the code the server sent', () => {
    expect(errorCode('WRONG_PASSWORD', 'anything')).toBe('WRONG_PASSWORD');
  });

  it('recognises a known English message when the code is missing or unknown', () => {
    expect(errorCode(undefined, ERRORS.EMAIL_TAKEN)).toBe('EMAIL_TAKEN');
    expect(errorCode('SOMETHING_NEW', ERRORS.RATE_LIMITED)).toBe('RATE_LIMITED');
  });

  it('answers null for errors it cannot place', () => {
    expect(errorCode(null, 'Disk on fire')).toBeNull();
  });
});

describe('translateError', () => {
  it('translates known errors by code and keeps unknown text', () => {
    expect(translateError(t, 'WRONG_CODE', ERRORS.WRONG_CODE)).toBe('<errors:WRONG_CODE>');
    expect(translateError(t, null, 'Disk on fire')).toBe('Disk on fire');
  });
});
