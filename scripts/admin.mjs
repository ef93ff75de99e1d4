// `npm run admin -- <command>`: the operator CLI (apps/server/src/cli). Runs the TypeScript source through tsx
// when it is installed (a development checkout), otherwise the bundle `npm run build` writes (apps/server/dist/admin.js).
// ADMIN_FROM=dist forces the bundle: the browser tests use it so the CLI migrates exactly as the built server does.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const root = new URL('..', import.meta.url).pathname;
const bundle = `${root}apps/server/dist/admin.js`;
let hasTsx = process.env.ADMIN_FROM !== 'dist';
if (hasTsx) {
  try { createRequire(import.meta.url).resolve('tsx'); } catch { hasTsx = false; }
}
const args = hasTsx
  ? ['--import', 'tsx', `${root}apps/server/src/cli/admin.ts`]
  : existsSync(bundle) ? ['--enable-source-maps', bundle] : null;
if (!args) {
  console.error(`No ${bundle}: run \`npm run build\` first${process.env.ADMIN_FROM === 'dist' ? '' : ' (or `npm ci` for tsx)'}.`);
  process.exit(1);
}
const child = spawn(process.execPath, [...args, ...process.argv.slice(2)], { stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
