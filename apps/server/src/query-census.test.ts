import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  BASELINE_PATH, countQueryCalls, crossModuleInternals, domainFolders, importSpecifiers, moduleFolders, moduleOf,
  productionFiles, SERVER_SRC, takeCensus, type Baseline,
} from '../test/query-census.js';

// Issue 29 item 1, decision 044: query calls stay in repositories and domains are entered through their index.ts.
// Domains must be at 0; the rest may only go down from the committed baseline.
const census = takeCensus();
const baseline = JSON.parse(readFileSync(BASELINE_PATH, 'utf8')) as Baseline;
const parse = (code: string) => ts.createSourceFile('x.ts', code, ts.ScriptTarget.Latest, false);
const HOW = 'move the query into the domain\'s <d>.repository.ts, or import the other domain through its index.ts';

function risen(key: 'queries' | 'crossImports'): string[] {
  return Object.entries(census.files)
    .filter(([path, counts]) => counts[key] > (baseline[key][path] ?? 0))
    .map(([path, counts]) => `${path}: ${counts[key]} (baseline ${baseline[key][path] ?? 'none: a new file'})`);
}

describe('query-call census', () => {
  it('counts query starters, sql templates and sql helpers, one per query', () => {
    expect(countQueryCalls(parse(`
      await db.selectFrom('users').selectAll().where('id', '=', id).execute();
      await tx.insertInto('a').values(v).execute(); await q.updateTable('a').set(s).execute(); await q.deleteFrom('a').execute();
      await db.transaction().execute(async (tx) => tx.with('x', (d) => d.selectFrom('b')).selectFrom('x').execute());
      await sql\`select 1\`.execute(db); const col = sql.ref('a.b');
      await repo.transaction(async (tx) => audit.record(tx, change));
      users.filter((u) => u.selected).map(String); cache.select('x');
    `))).toBe(10);
  });

  it('finds imports, re-exports and dynamic imports, and tells a domain\'s face from its internals', () => {
    const specifiers = importSpecifiers(parse(`
      import { a } from '../support/support.service.js'; import type { B } from '../legal/index.js';
      export { c } from '../../lib/bus.js'; const d = await import('../ports/ports.service.js'); import x from 'kysely';
    `));
    expect(specifiers).toEqual(['../support/support.service.js', '../legal/index.js', '../../lib/bus.js', '../ports/ports.service.js']);
    expect(crossModuleInternals('modules/coupons/coupons.service.ts', specifiers))
      .toEqual(['modules/support/support.service.ts', 'modules/ports/ports.service.ts']);
    expect(crossModuleInternals('cli/commands.ts', ['../modules/support/index.js', '../modules/support/support.routes.js']))
      .toEqual(['modules/support/support.routes.ts']);
    expect(moduleOf('modules/admin/admin-support/x.ts')).toBe('admin');
  });

  it('reads the real tree', () => {
    expect(productionFiles()).toContain('composition.ts');
    expect(productionFiles().some((p) => p.endsWith('.test.ts'))).toBe(false);
  });

  it('every domain (every folder of modules/) has its index.ts', () => {
    expect(domainFolders().filter((d) => !existsSync(join(SERVER_SRC, 'modules', d, 'index.ts')))).toEqual([]);
  });

  it('domains make no query call outside their repository and reach into no other module\'s internals', () => {
    const domains = new Set(domainFolders());
    const breaches = Object.entries(census.files)
      .filter(([path, counts]) => domains.has(moduleOf(path) ?? '') && (counts.queries > 0 || counts.crossImports > 0))
      .map(([path, counts]) => `${path}: ${counts.queries} query calls, ${counts.crossImports} imports of internals`);
    expect(breaches, HOW).toEqual([]);
  });

  it('nothing imports a domain\'s internals: other code enters a domain through its index.ts', () => {
    const domains = new Set(domainFolders());
    const breaches = productionFiles().flatMap((path) => {
      const source = parse(readFileSync(join(SERVER_SRC, path), 'utf8'));
      return crossModuleInternals(path, importSpecifiers(source))
        .filter((target) => domains.has(moduleOf(target)!)).map((target) => `${path} -> ${target}`);
    });
    expect(breaches, 'import the domain through its index.ts (export what you need there)').toEqual([]);
  });

  it('no file has more query calls or imports of internals than the baseline, and no new file has any', () => {
    const total = (key: 'queries' | 'crossImports') => Object.values(census.files).reduce((sum, c) => sum + c[key], 0);
    const baseTotal = (key: 'queries' | 'crossImports') => Object.values(baseline[key]).reduce((sum, n) => sum + n, 0);
    console.log(`query-census: ${total('queries')} query calls outside repositories (baseline ${baseTotal('queries')}), `
      + `${total('crossImports')} imports of another module's internals (baseline ${baseTotal('crossImports')}); `
      + `${census.domains.length} domains of ${moduleFolders().length} module folders: ${census.domains.join(', ') || 'none yet'}`);
    if (total('queries') < baseTotal('queries') || total('crossImports') < baseTotal('crossImports')) {
      console.log('query-census: below the baseline; lower it with `npx tsx apps/server/test/query-census.ts --write`');
    }
    expect(risen('queries'), HOW).toEqual([]);
    expect(risen('crossImports'), HOW).toEqual([]);
  });
});
