import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The composition root stays the one place that builds the server's parts (docs/decisions/019-composition-root.md):
 * every class the server's own code exports (services, repositories, adapters, drivers, caches — not errors) is
 * constructed with `new` in composition.ts and nowhere else, and there once. Tests and their helpers may build
 * what they like.
 */
const SRC = fileURLToPath(new URL('.', import.meta.url));
const ROOT = 'composition.ts';

/**
 * The adapter factories composition.ts calls: each builds one outside system's adapter from the config, choosing
 * the real or the sandbox implementation, so the classes of that adapter are built inside it. Their exported
 * create* functions are called from composition.ts (or from one another) only.
 */
const ADAPTER_FACTORIES = [
  'modules/payments/payments-runtime.ts',
  'integrations/stripe/create-card-provider.ts',
  'integrations/bitcoin/btc-adapter.ts',
  'integrations/tron/usdt-adapter.ts',
];
/** The database is opened before the composition (main.ts, the CLI and tests migrate it first). */
const OTHER_BUILDERS = ['db/database.ts'];
/**
 * Exported classes that are values a part owns, not parts: a repository keeps its own, as it keeps a Map, and nothing
 * else is handed one (`CompiledOnce`: the compiled text of a hot query, per shape).
 */
const OWNED_VALUES = new Set(['CompiledOnce']);

const isTestCode = (file: string) =>
  /\.test\.ts$|\.test-helpers\.ts$|test-support\.ts$/.test(file) || file.split('/').includes('testing');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [relative(SRC, path)] : [];
  });
}

const files = sources(SRC).filter((file) => !isTestCode(file));
const text = new Map(files.map((file) => [file, readFileSync(join(SRC, file), 'utf8')]));

/** Exported classes that are not errors: the parts the composition builds. */
const parts = new Set(files.flatMap((file) =>
  [...text.get(file)!.matchAll(/^export (?:abstract )?class (\w+)(?: extends (\w+))?/gm)]
    .filter(([, name, base]) => !name!.endsWith('Error') && !base?.endsWith('Error') && !OWNED_VALUES.has(name!))
    .map(([, name]) => name!)));
const factories = new Set(ADAPTER_FACTORIES.flatMap((file) =>
  [...text.get(file)!.matchAll(/^export function (create\w+)/gm)].map(([, name]) => name!)));

const constructions = (file: string) =>
  [...text.get(file)!.matchAll(/\bnew (\w+)\s*[(<]/g)].map(([, name]) => name!).filter((name) => parts.has(name));

describe('the composition root', () => {
  it('finds the parts it guards', () => {
    for (const name of ['PurchasesService', 'LedgerService', 'PortsRepository', 'AgentModemDriver', 'AltchaCaptcha', 'Mailer', 'JobQueue']) {
      expect(parts, name).toContain(name);
    }
    expect(factories).toContain('createPaymentsRuntime');
  });

  it('is the only place outside tests that constructs services, repositories, adapters and drivers', () => {
    const elsewhere = files
      .filter((file) => file !== ROOT && !ADAPTER_FACTORIES.includes(file) && !OTHER_BUILDERS.includes(file))
      .flatMap((file) => constructions(file).map((name) => `${file}: new ${name}(…)`));
    expect(elsewhere, 'build it in composition.ts and pass it in').toEqual([]);
  });

  it('builds each part once', () => {
    const built = constructions(ROOT);
    expect(built.filter((name, i) => built.indexOf(name) !== i), 'one instance per app').toEqual([]);
  });

  it('is the only caller of the adapter factories', () => {
    const callers = files
      .filter((file) => file !== ROOT && !ADAPTER_FACTORIES.includes(file))
      .flatMap((file) => [...factories].filter((name) => new RegExp(`\\b${name}\\(`).test(text.get(file)!)).map((name) => `${file}: ${name}(…)`));
    expect(callers).toEqual([]);
  });
});
