import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { FALLBACK_LANGUAGE, isLanguage, LANGUAGES, type Language } from '@cellport/shared';
import type { Database } from '../../db/database.js';
import type { Tx } from '../ledger/ledger.service.js';

export type NotificationType = 'payment' | 'other';
export type NotificationParams = Record<string, string | number>;

const localesDir = join(dirname(createRequire(import.meta.url).resolve('@cellport/shared/package.json')), 'locales');
// The texts live in packages/shared/locales/{lng}/notifications.json, like every other string a person reads.
const TEXTS: Record<Language, Record<string, string>> = Object.fromEntries(LANGUAGES.map((lng) => [
  lng,
  JSON.parse(readFileSync(join(localesDir, lng, 'notifications.json'), 'utf8')) as Record<string, string>,
])) as Record<Language, Record<string, string>>;

export function renderNotification(language: string, key: string, params: NotificationParams): string {
  const lng = isLanguage(language) ? language : FALLBACK_LANGUAGE;
  const template = TEXTS[lng][key] ?? TEXTS[FALLBACK_LANGUAGE][key] ?? key;
  return template.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => String(params[name] ?? ''));
}

/** Stores notifications in the user's language (the bell and its API come with a later issue). */
export class NotificationsService {
  constructor(private readonly db: Database) {}

  /** Pass the caller's transaction so the notification commits (or not) with what it tells about. */
  async notify(userId: string, type: NotificationType, key: string, params: NotificationParams, tx?: Tx): Promise<void> {
    const q = tx ?? this.db;
    const user = await q.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirst();
    await q.insertInto('notifications').values({
      user_id: userId, type, text_key: key, params: JSON.stringify(params),
      text: renderNotification(user?.language ?? FALLBACK_LANGUAGE, key, params),
    }).execute();
  }
}
