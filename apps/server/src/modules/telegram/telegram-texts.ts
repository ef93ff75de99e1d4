import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ERRORS, FALLBACK_LANGUAGE, isLanguage, LANGUAGES, type Language } from '@cellport/shared';

const localesDir = join(dirname(createRequire(import.meta.url).resolve('@cellport/shared/package.json')), 'locales');
const load = (lng: Language, ns: string) => JSON.parse(readFileSync(join(localesDir, lng, `${ns}.json`), 'utf8')) as Record<string, unknown>;
// The bot's answers live in packages/shared/locales/{lng}/telegram.json under "bot", errors in errors.json.
const BOT = Object.fromEntries(LANGUAGES.map((lng) => [lng, load(lng, 'telegram').bot as Record<string, string>])) as Record<Language, Record<string, string>>;
const ERROR_TEXTS = Object.fromEntries(LANGUAGES.map((lng) => [lng, load(lng, 'errors') as Record<string, string>])) as Record<Language, Record<string, string>>;

const fill = (template: string, params: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => String(params[name] ?? ''));

/** A customer's language as stored, or Telegram's language_code of someone not linked yet (zh → cn). */
export function languageOf(value: string | null | undefined): Language {
  if (isLanguage(value)) return value;
  const code = (value ?? '').toLowerCase();
  if (code.startsWith('ru')) return 'ru';
  if (code.startsWith('zh')) return 'cn';
  return FALLBACK_LANGUAGE;
}

export function botText(lng: Language, key: string, params: Record<string, string | number> = {}): string {
  return fill(BOT[lng][key] ?? BOT[FALLBACK_LANGUAGE][key] ?? key, params);
}

/** An error code's text for a person, in their language (errors.json). */
export function errorText(lng: Language, code: string, params: Record<string, string | number> = {}): string {
  return fill(ERROR_TEXTS[lng][code] ?? ERRORS[code as keyof typeof ERRORS] ?? ERROR_TEXTS[lng].INTERNAL ?? code, params);
}
