import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { FALLBACK_LANGUAGE, isLanguage, LANGUAGES, type Language } from '@cellport/shared';

/**
 * Texts the server makes (notifications, payment and invoice descriptions) are stored as a key and its parameters
 * and rendered in the reader's language when read (issue 14, item 3). A parameter is a plain value, every
 * language's text of it (`{ en, ru?, cn? }`: a country's or tariff's names, an operator's message), or another
 * such text (a purchase's description inside its notification). English stands in for a missing language.
 */
export type LocalizedValue = { en: string } & Partial<Record<Language, string>>;
/** Structurally the same as db/tables/payments StoredText (what a jsonb column holds). */
export interface ServerText { key: string; params?: Record<string, unknown> }
export type TextParam = string | number | LocalizedValue | ServerText;
export type TextParams = Record<string, TextParam>;

const localesDir = join(dirname(createRequire(import.meta.url).resolve('@cellport/shared/package.json')), 'locales');
const readJson = (lng: Language, ns: string) =>
  JSON.parse(readFileSync(join(localesDir, lng, `${ns}.json`), 'utf8')) as Record<string, unknown>;

/**
 * The templates, read once at start from the same locale files the web app loads: the `notifications` namespace
 * as it is, and the invoice lines (invoice.json `lines.*`) as `invoice_line_<name>`.
 */
const TEXTS: Record<Language, Record<string, string>> = Object.fromEntries(LANGUAGES.map((lng) => {
  const lines = (readJson(lng, 'invoice').lines ?? {}) as Record<string, string>;
  const texts = { ...(readJson(lng, 'notifications') as Record<string, string>) };
  for (const [name, template] of Object.entries(lines)) texts[`invoice_line_${name}`] = template;
  return [lng, texts];
})) as Record<Language, Record<string, string>>;

const isServerText = (v: unknown): v is ServerText =>
  typeof v === 'object' && v !== null && typeof (v as { key?: unknown }).key === 'string';

function param(lng: Language, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return String(value);
  if (isServerText(value)) return renderText(lng, value.key, value.params ?? {});
  const names = value as Partial<Record<string, unknown>>;
  const text = names[lng] || names[FALLBACK_LANGUAGE];
  return typeof text === 'string' ? text : '';
}

/** A stored text in `language` (an unknown language reads English; an unknown key reads as itself). */
export function renderText(language: string, key: string, params: Record<string, unknown> = {}): string {
  const lng = isLanguage(language) ? language : FALLBACK_LANGUAGE;
  const template = TEXTS[lng][key] ?? TEXTS[FALLBACK_LANGUAGE][key] ?? key;
  return template.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => param(lng, params[name]));
}

/** A stored ServerText (a jsonb column) in `language`, or `fallback` (the text stored before there was one). */
export function renderStored(language: string, stored: unknown, fallback: string): string {
  return isServerText(stored) ? renderText(language, stored.key, stored.params ?? {}) : fallback;
}
