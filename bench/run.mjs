// `npm run bench`: runs every benchmark in bench/ one after another, against the built app (`npm run build`).
// `npm run bench -- --quick` (what `npm test` runs): every bench's quick mode (BENCH_QUICK=1, bench/lib/quick.mjs),
// scale.mjs included, two at a time; each bench's output is printed whole when it ends, with its duration. A quick
// mode that runs past QUICK_TIMEOUT_S is stopped and counts as failed.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

// buying, purchase-ceiling, polling and scale need PostgreSQL (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the
// local server); purchase-ceiling also needs pgbench, sign-in-bundle Chromium.
// proxy.mjs installs tinyproxy, squid, dante, microsocks and wrk from Debian when they are missing (gateway.mjs: wrk
// and OpenSSH, run as root for its private sshd); their quick modes install nothing and fail without them (.ci/run
// installs them). fingerprint.mjs needs root (network namespaces, nftables, the Apple rewrite built with clang and
// libbpf-dev), as CI runs.
// scale.mjs is not in the full list: it seeds millions of rows for minutes; run it by itself (`node bench/scale.mjs`).
// soak.mjs is not in the full list either: it churns for an hour (`node bench/soak.mjs [--minutes N]`); its quick mode
// (seconds) is in the quick list.
const quick = process.argv.includes('--quick');
// Longest first, so two at a time finish close together.
const benches = quick
  ? ['polling.mjs', 'scale.mjs', 'sign-in-bundle.mjs', 'page-bundles.mjs', 'proxy.mjs', 'buying.mjs', 'purchase-ceiling.mjs', 'gateway.mjs', 'soak.mjs', 'fingerprint.mjs']
  : ['sign-in-bundle.mjs', 'page-bundles.mjs', 'buying.mjs', 'purchase-ceiling.mjs', 'polling.mjs', 'proxy.mjs', 'gateway.mjs', 'fingerprint.mjs'];
const QUICK_TIMEOUT_S = 300;

const results = [];
/** Quick modes run in process groups of their own: stopped with this one. */
const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of running) killGroup(child);
    process.exit(1);
  });
}
if (quick) {
  const queue = [...benches];
  const worker = async () => {
    while (queue.length) results.push(await runOne(queue.shift(), { BENCH_QUICK: '1' }, true));
  };
  await Promise.all(Array.from({ length: Math.min(2, availableParallelism()) }, worker));
  console.log('\nbench quick modes:');
  for (const r of results) console.log(`  ${r.ok ? '✔' : '✖'} bench/${r.bench} (${r.seconds.toFixed(1)} s)`);
} else {
  for (const bench of benches) results.push(await runOne(bench, {}, false));
}
process.exit(results.every((r) => r.ok) ? 0 : 1);

/** Runs bench/<bench>; with `buffered` its output is held and printed whole at the end (runs overlap). */
function runOne(bench, env, buffered) {
  const started = Date.now();
  if (!buffered) console.log(`\n▶ bench/${bench}`);
  const child = spawn(process.execPath, [new URL(bench, import.meta.url).pathname], {
    env: { ...process.env, ...env }, stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit', detached: buffered,
  });
  if (buffered) running.add(child);
  const output = [];
  child.stdout?.on('data', (d) => output.push(d));
  child.stderr?.on('data', (d) => output.push(d));
  // A hung quick mode must fail CI, not hold it: its whole process group is stopped.
  const timer = buffered ? setTimeout(() => {
    output.push(Buffer.from(`\nbench/${bench}: stopped after ${QUICK_TIMEOUT_S} s\n`));
    killGroup(child);
  }, QUICK_TIMEOUT_S * 1000) : null;
  return new Promise((resolve) => child.on('close', (code) => {
    clearTimeout(timer);
    running.delete(child);
    const seconds = (Date.now() - started) / 1000;
    if (buffered) {
      console.log(`\n▶ bench/${bench} (BENCH_QUICK=1): ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${seconds.toFixed(1)} s`);
      process.stdout.write(Buffer.concat(output));
    }
    resolve({ bench, ok: code === 0, seconds });
  }));
}

function killGroup(child) {
  try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
}
