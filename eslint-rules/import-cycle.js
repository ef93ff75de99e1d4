// A dependency-cycle rule that counts every import, `import type` included. eslint-plugin-import-x's no-cycle skips
// type-only imports (they vanish at runtime) and has no option not to; but a type cycle still ties two modules
// together, so the server and web code keep none (issue 12). Only relative imports can form a cycle here: the
// workspaces import each other by package name one way only (web → shared, server → shared).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

const EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs'];
/** file → { mtimeMs, deps }: each file is read once per lint run (and again only when it changed). */
const graph = new Map();

function resolveImport(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(js|mjs|jsx)$/, '');
  const candidates = [...EXTENSIONS.map((ext) => stem + ext), base, ...EXTENSIONS.map((ext) => `${base}/index${ext}`)];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile()) ?? null;
}

function dependencies(file) {
  const mtimeMs = statSync(file).mtimeMs;
  const known = graph.get(file);
  if (known && known.mtimeMs === mtimeMs) return known.deps;
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const deps = [...new Set(importedFiles.map((f) => resolveImport(file, f.fileName)).filter(Boolean))];
  graph.set(file, { mtimeMs, deps });
  return deps;
}

/** A shortest path of imports from `start` back to `target`, or null. */
function pathBack(start, target) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const dep of dependencies(file)) {
      if (dep === target) {
        const path = [file];
        for (let at = previous.get(file); at; at = previous.get(at)) path.unshift(at);
        return path;
      }
      if (!previous.has(dep)) { previous.set(dep, file); queue.push(dep); }
    }
  }
  return null;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles, type-only imports included' },
    schema: [],
    messages: { cycle: 'Import cycle (type-only imports count): {{path}}' },
  },
  create(context) {
    const filename = context.physicalFilename;
    const root = context.cwd;
    const check = (node) => {
      if (!node.source || typeof node.source.value !== 'string') return;
      const target = resolveImport(filename, node.source.value);
      if (!target || target === filename) return;
      const path = pathBack(target, filename);
      if (!path) return;
      const shown = [filename, ...path, filename].map((file) => relative(root, file)).join(' → ');
      context.report({ node: node.source, messageId: 'cycle', data: { path: shown } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
