// Bundles the server (and the shared package it imports from source) into dist/main.js, and the operator CLI
// into dist/admin.js (scripts/admin.mjs runs it where tsx is not installed).
// Dependencies stay external: node_modules is there at run time, and PGlite ships files beside its code.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies ?? {}).flatMap((name) => [name, `${name}/*`]);

await build({
  entryPoints: {
    main: new URL('./src/main.ts', import.meta.url).pathname,
    admin: new URL('./src/cli/admin.ts', import.meta.url).pathname,
  },
  outdir: new URL('./dist', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: [...external, 'zod', 'zod/*'],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});
