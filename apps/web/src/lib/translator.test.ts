import { describe, expect, it } from 'vitest';
import { Translator } from './translator';

type Tree = { [key: string]: string | Tree };
const files: Record<string, Tree> = {
  'en|common': { hello: 'Hello, {{name}}', ports_one: '{{count}} port', ports_other: '{{count}} ports', only: { en: 'English only' } },
  'ru|common': { hello: 'Привет, {{name}}', ports_one: '{{count}} порт', ports_few: '{{count}} порта', ports_many: '{{count}} портов', ports_other: '{{count}} порта' },
  'cn|common': { hello: '你好，{{name}}', ports_other: '{{count}} 个端口' },
  'en|errors': { NOT_FOUND: 'Not found', 'flat.key': 'a flat key with dots', event: { 'port.bought': 'Port bought' } },
  'ru|errors': { NOT_FOUND: 'Не найдено' },
};

function translator(language: string, fetched: string[] = []) {
  return new Translator(language, 'en', async (lng, ns) => {
    fetched.push(`${lng}|${ns}`);
    const tree = files[`${lng}|${ns}`];
    if (!tree) throw new Error('404');
    return tree;
  }, (l) => (l === 'cn' ? 'zh-CN' : l));
}

describe('the translator (i18next conventions the locale files use)', () => {
  it('chooses plural forms by the language\'s rules and fills placeholders', async () => {
    const ru = translator('ru');
    await ru.init(['common', 'errors']);
    const t = ru.fixedT(['common']);
    expect([1, 3, 5, 21, 1.5].map((count) => t('ports', { count }))).toEqual(['1 порт', '3 порта', '5 портов', '21 порт', '1.5 порта']);
    expect(t('hello', { name: 'Анна' })).toBe('Привет, Анна');
    const cn = translator('cn');
    await cn.init(['common']);
    expect(cn.t('ports', { count: 1 })).toBe('1 个端口');
    const en = translator('en');
    await en.init(['common']);
    expect([0, 1, 2].map((count) => en.t('ports', { count }))).toEqual(['0 ports', '1 port', '2 ports']);
  });

  it('falls back to English, then to the default value, then to the key without its namespace', async () => {
    const ru = translator('ru');
    await ru.init(['common', 'errors']);
    expect(ru.t('only.en')).toBe('English only');
    expect(ru.t('errors:NOT_FOUND')).toBe('Не найдено');
    expect(ru.t('errors:MISSING', { defaultValue: 'fallback' })).toBe('fallback');
    expect(ru.t('errors:MISSING')).toBe('MISSING');
    expect(ru.t('hello')).toBe('Привет, ');
    expect(ru.exists('common:only.en')).toBe(true);
    expect(ru.exists('common:toString')).toBe(false);
    expect(ru.fixedT(['errors'])('flat.key')).toBe('a flat key with dots');
    expect(ru.fixedT(['errors'])('event.port.bought')).toBe('Port bought');
  });

  it('looks keys without a prefix up in the fixed namespaces in order', async () => {
    const en = translator('en');
    await en.init(['common', 'errors']);
    expect(en.fixedT(['errors', 'common'])('NOT_FOUND')).toBe('Not found');
    expect(en.fixedT(['errors', 'common'])('hello', { name: 'Ann' })).toBe('Hello, Ann');
  });

  it('loads every namespace used so far before it announces a language change', async () => {
    const fetched: string[] = [];
    const en = translator('en', fetched);
    await en.init(['common']);
    await en.loadNamespaces(['errors']);
    const heard: string[] = [];
    en.subscribe(() => heard.push(`${en.language}:${en.hasLoadedNamespace('errors')}`));
    await en.changeLanguage('ru');
    expect(fetched).toEqual(expect.arrayContaining(['ru|common', 'ru|errors']));
    expect(heard.at(-1)).toBe('ru:true');
    expect(en.t('errors:NOT_FOUND')).toBe('Не найдено');
  });
});
