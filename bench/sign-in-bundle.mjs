// Measures the JavaScript the sign-in page loads: starts the BUILT server (it builds nothing), opens /en/sign-in
// in Chromium, waits for network idle and for the hidden captcha to finish, then sums every script response —
// gzip level 9 of each body (the figure bench/BENCHMARKS.md records; target ≤ 75 KB, issue 31) and the bytes as served.
// Translations (/locales/{lng}/{ns}.js, JSON data) are listed apart and not counted as JavaScript.
// Quick mode (BENCH_QUICK=1) is the same run: it judges no figure against the target, and fails when the page loaded no
// script or the captcha did not pass.
import { QUICK, fault } from './lib/quick.mjs';
import { kb, launchChromium, requireBuild, scriptSizes, startBuiltServer, sum } from './lib/built-app.mjs';

const TARGET_KB = 75;
requireBuild();
// The default captcha (altcha): the page runs its proof-of-work, so its code counts too.
const server = await startBuiltServer();
const { url } = server;
let browser;
try {
  browser = await launchChromium();
  const context = await browser.newContext();
  const page = await context.newPage();
  const pending = [];
  // context-level: scripts of workers (the proof-of-work may run in one) are seen too.
  context.on('response', (response) => pending.push(scriptSizes(response)));
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
  await server.stop();
}

function print(scripts, locales, captcha) {
  const row = (cells) => console.log(cells[0].padEnd(58) + cells.slice(1).map((c) => String(c).padStart(11)).join(''));
  console.log(`\nSign-in page (/en/sign-in) JavaScript — captcha: ${captcha}\n`);
  row(['file', 'raw KB', 'gzip-9 KB', 'served KB', 'encoding']);
  for (const s of scripts.sort((a, b) => b.gzip - a.gzip)) row([s.path, kb(s.raw), kb(s.gzip), kb(s.served), s.encoding]);
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
