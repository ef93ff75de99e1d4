// `npm run test:e2e`: the browser tests, against the BUILT app (`npm test` builds before this step).
// Runs vitest with e2e/vitest.config.ts; extra arguments go to vitest (e.g. a spec file name filter).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const webDist = process.env.WEB_DIST ?? `${root}apps/web/dist`;
const missing = [`${root}apps/server/dist/main.js`, `${root}apps/server/dist/admin.js`, `${webDist}/index.html`].filter((f) => !existsSync(f));
if (missing.length) {
  console.error(`The browser tests run against the built app, and the build is missing:\n  ${missing.join('\n  ')}\n` +
    'Run `npm run build` first (`npm test` does it for you).');
  process.exit(1);
}
if (!existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) {
  console.error('Chromium is missing at /usr/bin/chromium: install Debian\'s `chromium` package (.ci/run does).');
  process.exit(1);
}
const result = spawnSync('npx', ['vitest', 'run', '--config', 'e2e/vitest.config.ts', ...process.argv.slice(2)], {
  cwd: root, stdio: 'inherit',
});
process.exit(result.status ?? 1);
