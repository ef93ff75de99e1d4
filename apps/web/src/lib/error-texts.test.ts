import { ERRORS } from '@cellport/shared/errors';
import { COMMON_ERRORS } from '@cellport/shared/errors/common';
import { describe, expect, it, vi } from 'vitest';
import { codeOfEnglishText, englishErrorText, isErrorCode } from './error-texts';
import { initI18n } from './i18n';
import { loadLocale } from './locale-files.test-support';

/** Loads the page's translations from packages/shared/locales, as the browser loads them from the server. */
async function loadTranslations() {
  vi.stubGlobal('fetch', async (url: string) => {
    const [, lng, ns] = /\/locales\/(\w+)\/([\w-]+)\.js$/.exec(url)!;
    return new Response(JSON.stringify(loadLocale(lng!, ns!)));
  });
  await initI18n('ru');
  vi.unstubAllGlobals();
}

describe('English error texts without shared/errors in the bundle', () => {
  it('knows the errors any endpoint answers before the translations load', () => {
    expect(englishErrorText('INTERNAL')).toBe(COMMON_ERRORS.INTERNAL);
    expect(englishErrorText('NETWORK')).toBe(COMMON_ERRORS.NETWORK);
    expect(englishErrorText('WRONG_PASSWORD')).toBeUndefined();
  });

  it('gives every code the text ERRORS gives it once the page has loaded its translations, in any language', async () => {
    await loadTranslations();
    for (const [code, text] of Object.entries(ERRORS)) {
      expect(englishErrorText(code), code).toBe(text);
      expect(isErrorCode(code), code).toBe(true);
    }
    expect(codeOfEnglishText(ERRORS.EMAIL_TAKEN)).toBe('EMAIL_TAKEN');
  });

  it('knows no other code and no other text', () => {
    for (const code of ['SOMETHING_NEW', 'toString', 'constructor', '__proto__', 42, null]) {
      expect(englishErrorText(code)).toBeUndefined();
      expect(isErrorCode(code)).toBe(false);
    }
    expect(codeOfEnglishText('Disk on fire')).toBeUndefined();
  });
});
