import type { Language } from '@cellport/shared/constants';

/**
 * The first of the browser's languages (navigator.languages, the Accept-Language it sends) that we speak: ru, zh
 * (any script or region: our cn), en; none of them: en. Used where a path names no language (issue 27, item 12).
 */
export function browserLanguage(languages: readonly string[] = navigator.languages): Language {
  for (const tag of languages) {
    const l = tag.toLowerCase();
    if (l.startsWith('ru')) return 'ru';
    if (l.startsWith('zh')) return 'cn';
    if (l.startsWith('en')) return 'en';
  }
  return 'en';
}
