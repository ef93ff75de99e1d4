import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// The fingerprint presets' C parts (the egress program, a tc-eBPF object; the preset socket addon) ship as source and are
// built on the host with its own compiler on first use (decisions 037, 051): no prebuilt binary to download or to trust,
// and one source serves every architecture. Built once per source version into the agent's data folder.

const exec = promisify(execFile);

/**
 * A C file of the agent: in the source tree beside this module or in src/relay (the kernel relay), beside dist/main.js
 * in the bundle (build.mjs).
 */
export function shippedSource(name: string): string {
  for (const rel of [`./${name}`, `../relay/${name}`, `../src/fingerprint/${name}`, `../src/relay/${name}`]) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new Error(`${name} is missing from the agent`);
}

const building = new Map<string, Promise<string>>();

/** Where buildOnHost puts (and finds) the build of this version of `source`. */
export function builtPath(dataDir: string, source: string, stem: string, suffix: string): string {
  const hash = createHash('sha256').update(readFileSync(shippedSource(source))).digest('hex').slice(0, 12);
  return join(dataDir, 'fingerprint', `${stem}-${hash}${suffix}`);
}

/**
 * `<dataDir>/fingerprint/<stem>-<source hash><suffix>`, compiled from the shipped `source` with `flags` by the first
 * of `compilers` that works (cc, clang, gcc by default). Concurrent callers share one build; the file appears whole
 * (renamed into place), so a second agent or a crash never leaves a half-written binary behind. `needs` says what a
 * failed build lacks.
 */
export function buildOnHost(dataDir: string, source: string, stem: string, suffix: string, flags: string[], needs: string,
  compilers: readonly string[] = ['cc', 'clang', 'gcc']): Promise<string> {
  const path = shippedSource(source);
  const binary = builtPath(dataDir, source, stem, suffix);
  let build = building.get(binary);
  if (build === undefined) {
    build = compile(path, binary, flags, needs, compilers);
    building.set(binary, build);
    build.catch(() => building.delete(binary));
  }
  return build;
}

async function compile(source: string, binary: string, flags: string[], needs: string, compilers: readonly string[]): Promise<string> {
  if (existsSync(binary)) return binary;
  await mkdir(join(binary, '..'), { recursive: true });
  const partial = `${binary}.${process.pid}.tmp`;
  let lastError = '';
  for (const cc of compilers) {
    try {
      // The flags after the source: libraries (-l) must follow what uses them.
      await exec(cc, ['-O2', '-o', partial, source, ...flags]);
      await rename(partial, binary);
      return binary;
    } catch (err) {
      lastError = String((err as { stderr?: string }).stderr || (err as Error).message).slice(0, 160);
    }
  }
  await rm(partial, { force: true });
  throw new Error(`it could not be built (needs ${needs}): ${lastError}`);
}
