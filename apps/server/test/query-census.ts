/**
 * The query-call census (issue 29 item 1; decision 044): per production file of apps/server/src, how many query calls
 * stand outside a repository and how many imports reach into another module folder's internals. Read by
 * `src/query-census.test.ts`, which holds every count to the committed baseline (`src/query-census.baseline.json`)
 * and every domain (every folder of modules/) to 0.
 *
 * Rewrite the baseline after a count went down: `npx tsx apps/server/test/query-census.ts --write`.
 *
 * What counts as a query call (read from the syntax alone, so it needs no type checker and takes a second):
 * - a call of a method named like Kysely's query starters: selectFrom, selectNoFrom, insertInto, replaceInto,
 *   updateTable, deleteFrom, mergeInto, with, withRecursive, executeQuery, and Kysely's transaction() and
 *   connection() (no argument: a repository's `transaction(work)` is the way out): one per query (the `.execute()`
 *   that ends it is not counted again);
 * - a `sql` tagged template, and a call of a `sql.<helper>` (sql.raw, sql.ref, sql.join, …): raw SQL or a piece of it.
 * Not counted: `*.repository.ts` (their job), tests and test kits, migrations and seeds, the PGlite dialect
 * (`db/pglite-dialect.ts`: the driver, whose executeQuery and BEGIN/COMMIT run every query and query no table), and
 * `db/compiled-once.ts` (its executeQuery sends a query a repository built, keeping the compiled text: it queries no
 * table of its own).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const SERVER_SRC = join(dirname(fileURLToPath(import.meta.url)), '../src');
export const BASELINE_PATH = join(SERVER_SRC, 'query-census.baseline.json');

const QUERY_METHODS = new Set([
  'selectFrom', 'selectNoFrom', 'insertInto', 'replaceInto', 'updateTable', 'deleteFrom', 'mergeInto', 'with',
  'withRecursive', 'executeQuery',
]);
/** Kysely's `db.transaction()` and `db.connection()` take no argument; a repository's `transaction(work)` takes one. */
const HANDLE_METHODS = new Set(['transaction', 'connection']);
const TEST_FILE = /\.test\.tsx?$|\.test-[a-z-]+\.ts$|(^|\/)test-(support|fixtures)\.ts$|(^|\/)testing\//;
const NOT_COUNTED = /\.repository\.ts$|^db\/migrations\/|^db\/seed\/|\.seed\.ts$|^db\/pglite-dialect\.ts$|^db\/compiled-once\.ts$/;
/**
 * The composition root builds every service, so it reaches into the folders that have no face yet; its imports are
 * not counted (into a domain they must still go through index.ts: the test checks every file for that).
 */
const COMPOSITION_ROOT = new Set(['composition.ts', 'app.ts']);

export interface FileCounts { queries: number; crossImports: number }
export interface Census { files: Record<string, FileCounts>; domains: string[] }
export interface Baseline { queries: Record<string, number>; crossImports: Record<string, number> }

/** Module folders that are domains: every folder of modules/ (the "not yet a domain" list emptied with issue 29). */
export function domainFolders(): string[] {
  return moduleFolders();
}

export function moduleFolders(): string[] {
  return readdirSync(join(SERVER_SRC, 'modules'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
}

/** The module folder a path (relative to src, with /) belongs to, or null outside modules/. */
export function moduleOf(path: string): string | null {
  const match = /^modules\/([^/]+)\//.exec(path);
  return match ? match[1]! : null;
}

/** Production .ts files of src, relative and with /, tests and test kits left out. */
export function productionFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        const path = relative(SERVER_SRC, full).split('\\').join('/');
        if (!TEST_FILE.test(path)) files.push(path);
      }
    }
  };
  walk(SERVER_SRC);
  return files.sort();
}

export function countQueryCalls(source: ts.SourceFile): number {
  let count = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && node.tag.text === 'sql') count += 1;
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const { expression: receiver, name } = node.expression;
      if (QUERY_METHODS.has(name.text) || (HANDLE_METHODS.has(name.text) && node.arguments.length === 0)
        || (ts.isIdentifier(receiver) && receiver.text === 'sql')) count += 1;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return count;
}

/** Relative import specifiers of a file: imports, re-exports and dynamic imports. */
export function importSpecifiers(source: ts.SourceFile): string[] {
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword
      && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      specifiers.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers.filter((s) => s.startsWith('.'));
}

/** The imports of `path` that reach into another module folder's files other than its index.ts, as src paths. */
export function crossModuleInternals(path: string, specifiers: string[]): string[] {
  const own = moduleOf(path);
  return specifiers
    .map((s) => posix.normalize(posix.join(posix.dirname(path), s)).replace(/\.js$/, '.ts'))
    .filter((target) => {
      const other = moduleOf(target);
      return other !== null && other !== own && target !== `modules/${other}/index.ts`;
    });
}

export function takeCensus(): Census {
  const files: Record<string, FileCounts> = {};
  for (const path of productionFiles()) {
    const source = ts.createSourceFile(path, readFileSync(join(SERVER_SRC, path), 'utf8'), ts.ScriptTarget.Latest, false);
    files[path] = {
      queries: NOT_COUNTED.test(path) ? 0 : countQueryCalls(source),
      crossImports: COMPOSITION_ROOT.has(path) ? 0 : crossModuleInternals(path, importSpecifiers(source)).length,
    };
  }
  return { files, domains: domainFolders() };
}

/** The census as a baseline: only files with a count above 0, in path order. */
export function toBaseline(census: Census): Baseline {
  const pick = (key: keyof FileCounts) => Object.fromEntries(Object.entries(census.files)
    .filter(([, counts]) => counts[key] > 0).map(([path, counts]) => [path, counts[key]]));
  return { queries: pick('queries'), crossImports: pick('crossImports') };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1] && process.argv.includes('--write')) {
  writeFileSync(BASELINE_PATH, `${JSON.stringify(toBaseline(takeCensus()), null, 2)}\n`);
  console.log(`wrote ${relative(process.cwd(), BASELINE_PATH)}`);
}
