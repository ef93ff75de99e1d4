import { describe, expect, it } from 'vitest';
import { browserLanguage } from './browser-language';

describe('browserLanguage (issue 27, item 12)', () => {
  it('takes the first language we speak, zh of any region as cn, else en', () => {
    expect(browserLanguage(['ru-RU', 'en-US'])).toBe('ru');
    expect(browserLanguage(['zh-TW', 'en'])).toBe('cn');
    expect(browserLanguage(['de-DE', 'zh-CN'])).toBe('cn');
    expect(browserLanguage(['en-GB', 'ru'])).toBe('en');
    expect(browserLanguage(['de', 'fr'])).toBe('en');
    expect(browserLanguage([])).toBe('en');
  });
});
