// Reads the UI texts from packages/shared/locales, so specs find controls by the words a person sees in each
// language without hard-coding any translation.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './server.js';

export const languages = ['en', 'ru', 'cn'] as const;
export type Language = (typeof languages)[number];

type Tree = { [key: string]: string | Tree };
const cache = new Map<string, Tree>();

function namespace(lng: Language, ns: string): Tree {
  const id = `${lng}/${ns}`;
  let tree = cache.get(id);
  if (!tree) {
    tree = JSON.parse(readFileSync(join(repoRoot, 'packages/shared/locales', lng, `${ns}.json`), 'utf8')) as Tree;
    cache.set(id, tree);
  }
  return tree;
}

/**
 * The text of `ns:dotted.key` in a language, with {{name}} placeholders filled from `values`.
 * Throws when the key is missing: a spec must not silently look for a text the page can never show.
 */
export function t(lng: Language, key: string, values: Record<string, string | number> = {}): string {
  const [ns, path] = key.includes(':') ? (key.split(':', 2) as [string, string]) : ['common', key];
  let node: string | Tree | undefined = namespace(lng, ns);
  for (const part of path.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no text for ${lng}:${key} in packages/shared/locales`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? `{{${name}}}`));
}

/** A RegExp matching text that begins with `text` (a heading followed by a badge, say). */
export function startsWith(text: string): RegExp {
  return new RegExp(`^\\s*${escape(text)}`);
}

/** A RegExp matching the text exactly (for getByRole name / getByText), escaping what RegExp treats specially. */
export function exact(text: string): RegExp {
  return new RegExp(`^\\s*${escape(text)}\\s*$`);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
