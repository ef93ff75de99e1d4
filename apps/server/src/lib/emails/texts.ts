import { FALLBACK_LANGUAGE, isLanguage, LANGUAGES, type Language } from '@cellport/shared/constants';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The shape of packages/shared/locales/<lng>/emails.json. */
export interface EmailTexts {
  greeting: string;
  linkHint: string;
  signature: string;
  footer: string;
  confirm: LinkEmailTexts;
  reset: LinkEmailTexts;
}
export interface LinkEmailTexts { subject: string; intro: string; button: string; expires: string; ignore: string }

const localesDir = join(dirname(createRequire(import.meta.url).resolve('@cellport/shared/package.json')), 'locales');

/** Read once at start, the same files the web app loads; a missing language falls back to English. */
const texts = new Map<Language, EmailTexts>(
  LANGUAGES.map((lng) => [lng, JSON.parse(readFileSync(join(localesDir, lng, 'emails.json'), 'utf8')) as EmailTexts]),
);

export function emailTexts(language: string): EmailTexts {
  return texts.get(isLanguage(language) ? language : FALLBACK_LANGUAGE) ?? (texts.get(FALLBACK_LANGUAGE) as EmailTexts);
}
