// The translations of the page: namespaces fetched from the server (/locales/{lng}/{ns}.js, JSON) and looked up
// with i18next's conventions, which the locale files were written for: `ns:dotted.key`, `{{name}}` placeholders, plural
// forms as `key_one`, `key_few`, `key_many`, `key_other` chosen by `count`, a `defaultValue` when a key is missing,
// and English as the fallback language. It replaces i18next (14 KB of gzip on every page) with the part the app uses
// (issue 31, item 4; docs/decisions/002-small-public-bundle.md).

type Tree = { [key: string]: string | Tree };

export interface TOptions {
  count?: number;
  defaultValue?: string;
  [name: string]: unknown;
}

export type TFunction = (key: string, options?: TOptions) => string;

type Listener = () => void;

export class Translator {
  language: string;
  isInitialized = false;
  private readonly resources = new Map<string, Tree>();
  private readonly loading = new Map<string, Promise<void>>();
  /** Every namespace asked for so far: a language change loads them all before it is announced. */
  private readonly used = new Set<string>();
  private readonly listeners = new Set<Listener>();

  constructor(
    language: string,
    private readonly fallback: string,
    private readonly fetchNamespace: (language: string, ns: string) => Promise<Tree>,
    /** The locale for plural rules: our language codes are not all BCP 47 (cn). */
    private readonly pluralLocale: (language: string) => string = (l) => l,
  ) {
    this.language = language;
  }

  async init(namespaces: readonly string[]): Promise<void> {
    await this.loadNamespaces(namespaces);
    this.isInitialized = true;
    this.emit();
  }

  hasLoadedNamespace(ns: string): boolean {
    return this.resources.has(`${this.language}|${ns}`) && this.resources.has(`${this.fallback}|${ns}`);
  }

  /** Loads the namespaces in the current language and the fallback (a namespace that fails to load counts as empty). */
  async loadNamespaces(namespaces: readonly string[]): Promise<void> {
    for (const ns of namespaces) this.used.add(ns);
    const languages = [...new Set([this.language, this.fallback])];
    await Promise.all(languages.flatMap((lng) => namespaces.map((ns) => this.load(lng, ns))));
    this.emit();
  }

  async changeLanguage(language: string): Promise<void> {
    if (language === this.language) return;
    const languages = [...new Set([language, this.fallback])];
    await Promise.all(languages.flatMap((lng) => [...this.used].map((ns) => this.load(lng, ns))));
    this.language = language;
    this.emit();
  }

  /** Re-render hook: called after a language change or a load. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => { this.listeners.delete(listener); };
  }

  /** A namespace of a language as the server sent it, once loaded (undefined before, or when it failed). */
  loaded(language: string, ns: string): Readonly<Tree> | undefined {
    return this.resources.get(`${language}|${ns}`);
  }

  exists(key: string): boolean {
    return this.lookup(key, ['common'], undefined) !== undefined;
  }

  t(key: string, options?: TOptions): string {
    return this.fixedT(['common'])(key, options);
  }

  /** `t` whose keys without a `ns:` prefix are looked up in these namespaces, in order. */
  fixedT(namespaces: readonly string[]): TFunction {
    return (key, options) => {
      const found = this.lookup(key, namespaces, options?.count);
      // Missing: the default, else the key without its namespace (i18next's answer).
      if (found === undefined) return options?.defaultValue ?? key.slice(key.indexOf(':') + 1);
      return interpolate(found, options);
    };
  }

  private lookup(key: string, namespaces: readonly string[], count: number | undefined): string | undefined {
    const colon = key.indexOf(':');
    const [searched, path] = colon > 0 ? [[key.slice(0, colon)], key.slice(colon + 1)] : [namespaces, key];
    const candidates = count === undefined ? [path] : [`${path}_${this.pluralForm(count)}`, `${path}_other`, path];
    for (const lng of [this.language, this.fallback]) {
      for (const ns of searched) {
        const tree = this.resources.get(`${lng}|${ns}`);
        if (!tree) continue;
        for (const candidate of candidates) {
          const value = resolve(tree, candidate);
          if (typeof value === 'string') return value;
        }
      }
    }
    return undefined;
  }

  private pluralForm(count: number): string {
    return new Intl.PluralRules(this.pluralLocale(this.language)).select(count);
  }

  private load(language: string, ns: string): Promise<void> {
    const id = `${language}|${ns}`;
    if (this.resources.has(id)) return Promise.resolve();
    let promise = this.loading.get(id);
    if (!promise) {
      promise = this.fetchNamespace(language, ns)
        .then((tree) => { this.resources.set(id, tree); }, () => { this.resources.set(id, {}); })
        .finally(() => { this.loading.delete(id); });
      this.loading.set(id, promise);
    }
    return promise;
  }

  private emit(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** The value at a dotted path; a key may itself hold dots (`event` → `port.bought`), as i18next allows. */
function resolve(tree: Tree, path: string): string | Tree | undefined {
  return find(tree, path.split('.'));
}

function find(node: Tree, parts: string[]): string | Tree | undefined {
  for (let i = 1; i <= parts.length; i++) {
    const key = parts.slice(0, i).join('.');
    if (!Object.hasOwn(node, key)) continue;
    const value = node[key]!;
    if (i === parts.length) return value;
    if (typeof value === 'object') {
      const found = find(value, parts.slice(i));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** `{{name}}` from the options; a value that is missing becomes empty, as in i18next. */
function interpolate(text: string, options: TOptions | undefined): string {
  if (!text.includes('{{')) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_match, name: string) => {
    const value = options?.[name];
    return value === undefined || value === null ? '' : String(value);
  });
}
