// Measures the JavaScript the sign-in page loads: starts the BUILT server (it builds nothing), opens /en/sign-in
// in Chromium, waits for network idle and for the hidden captcha to finish, then sums every script response —
// gzip level 9 of each body (the figure bench/BENCHMARKS.md records; target ≤ 100 KB) and the bytes as served.
// Translations (/locales/{lng}/{ns}.js, JSON data) are listed apart and not counted as JavaScript.
// Quick mode (BENCH_QUICK=1) is the same run: it judges no figure against the target, and fails when the page loaded no
// script or the captcha did not pass.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { QUICK, fault } from './lib/quick.mjs';

const root = new URL('..', import.meta.url).pathname;
const TARGET_KB = 100;
const webDist = process.env.WEB_DIST ?? join(root, 'apps/web/dist');
for (const file of [join(root, 'apps/server/dist/main.js'), join(webDist, 'index.html')]) {
  if (!existsSync(file)) {
    console.error(`Missing ${file}: run \`npm run build\` first (the bench measures the built app).`);
    process.exit(1);
  }
}

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'cellport-bench-'));
// The default captcha (altcha): the page runs its proof-of-work, so its code counts too. No demo seed and no embedded
// agent: nothing listens on the demo modems' fixed ports (21000+), which a running `npm start` holds.
const server = spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], {
  env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1',
    PUBLIC_URL: url, DATA_DIR: dataDir, SEED_DEMO: 'false', EMBEDDED_AGENT: 'false', LOG_LEVEL: 'warn', WEB_DIST: webDist },
  stdio: ['ignore', 'ignore', 'inherit'],
});
let browser;
try {
  await waitReady(url);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const context = await browser.newContext();
  const page = await context.newPage();
  const pending = [];
  // context-level: scripts of workers (the proof-of-work may run in one) are seen too.
  context.on('response', (response) => pending.push(describe(response)));
  const captchaDone = page.waitForResponse((r) => r.url().endsWith('/api/v1/verify-re-captcha'), { timeout: 30_000 })
    .then((r) => r.ok() ? 'passed' : `answered ${r.status()}`, () => 'not seen within 30 s');
  await page.goto(`${url}/en/sign-in`, { waitUntil: 'networkidle' });
  const captcha = await captchaDone;
  await page.waitForLoadState('networkidle');
  const loaded = (await Promise.all(pending)).filter(Boolean);
  const scripts = loaded.filter((r) => r.kind === 'script');
  const locales = loaded.filter((r) => r.kind === 'locale');
  print(scripts, locales, captcha);
  if (QUICK && (scripts.length === 0 || captcha !== 'passed')) fault(`sign-in page: ${scripts.length} scripts, captcha ${captcha}`);
} finally {
  await browser?.close();
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}

async function describe(response) {
  const path = new URL(response.url()).pathname;
  const type = response.headers()['content-type'] ?? '';
  const kind = path.startsWith('/locales/') ? 'locale'
    : response.request().resourceType() === 'script' || /javascript/.test(type) ? 'script' : null;
  if (!kind) return null;
  const body = await response.body();
  const sizes = await response.request().sizes();
  return {
    kind, path,
    raw: body.length,
    gzip: gzipSync(body, { level: 9 }).length,
    served: sizes.responseBodySize,
    encoding: response.headers()['content-encoding'] ?? 'none',
  };
}

function print(scripts, locales, captcha) {
  const kb = (n) => (n / 1024).toFixed(1);
  const row = (cells) => console.log(cells[0].padEnd(58) + cells.slice(1).map((c) => String(c).padStart(11)).join(''));
  console.log(`\nSign-in page (/en/sign-in) JavaScript — captcha: ${captcha}\n`);
  row(['file', 'raw KB', 'gzip-9 KB', 'served KB', 'encoding']);
  for (const s of scripts.sort((a, b) => b.gzip - a.gzip)) row([s.path, kb(s.raw), kb(s.gzip), kb(s.served), s.encoding]);
  const sum = (list, key) => list.reduce((n, s) => n + s[key], 0);
  const total = sum(scripts, 'gzip');
  row([`TOTAL JavaScript (${scripts.length} files)`, kb(sum(scripts, 'raw')), kb(total), kb(sum(scripts, 'served')), '']);
  if (locales.length) {
    row([`translations, not counted (${locales.length} files)`, kb(sum(locales, 'raw')), kb(sum(locales, 'gzip')), kb(sum(locales, 'served')), '']);
  }
  const verdict = total <= TARGET_KB * 1024 ? 'within' : 'OVER';
  const share = ((total / (TARGET_KB * 1024)) * 100).toFixed(0);
  console.log(`\nsign-in JavaScript: ${kb(total)} KB gzip (level 9), ${share} % of the ${TARGET_KB} KB target — ${verdict} it`);
  if (verdict === 'OVER' && !QUICK) process.exitCode = 1;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function waitReady(base) {
  for (let i = 0; i < 400; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch { /* starting */ }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error('the server did not become ready within 60 s');
}
