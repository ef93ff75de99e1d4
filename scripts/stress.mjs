// `npm run test:stress`: the unit and server tests (the root Vitest config, as `npm run test:unit` runs them), N times,
// while busy-loop processes take every core, to find the tests that only fail on a busy machine. Each run shuffles
// the file order with its own seed (which files run side by side changes), and every test that failed even once is
// reported with its run, database, seed and timing, and a command that replays that run's order.
//
//   npm run test:stress                              5 runs on PostgreSQL when it answers on 127.0.0.1:5432, else PGlite
//   npm run test:stress -- --runs 2 --db both        2 runs on each database
//   npm run test:stress -- apps/server/src/modules/ports/ports-list-cache.test.ts notifications
//                                                    only the files matching these filters (as `vitest run <filters>`)
//
// Options (or STRESS_RUNS, STRESS_DB, STRESS_HOGS, STRESS_SEED): --runs N (default 5), --db postgres|pglite|both,
// --hogs N (busy processes, default one per core), --seed S (run i uses S + i; default random).
// No retries: a test that fails once is reported, and the exit code is 1.
import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { failuresOf, summarize } from './stress-report.mjs';

const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';

function parseArgs(argv) {
  const options = {
    runs: Number(process.env.STRESS_RUNS ?? 5),
    db: process.env.STRESS_DB ?? 'auto',
    hogs: Number(process.env.STRESS_HOGS ?? availableParallelism()),
    seed: process.env.STRESS_SEED === undefined ? undefined : Number(process.env.STRESS_SEED),
    filters: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith('--') ? arg.split('=', 2) : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === '--runs') options.runs = Number(value());
    else if (flag === '--db') options.db = value();
    else if (flag === '--hogs') options.hogs = Number(value());
    else if (flag === '--seed') options.seed = Number(value());
    else if (flag === '--help' || flag === '-h') { console.log(readFileSync(new URL(import.meta.url), 'utf8').split('\nimport ')[0]); process.exit(0); }
    else if (arg.startsWith('-')) throw new Error(`unknown option ${arg}`);
    else options.filters.push(arg);
  }
  if (!Number.isInteger(options.runs) || options.runs < 1) throw new Error('--runs takes a whole number of 1 or more');
  if (!Number.isInteger(options.hogs) || options.hogs < 0) throw new Error('--hogs takes a whole number');
  if (!['auto', 'postgres', 'pglite', 'both'].includes(options.db)) throw new Error('--db is postgres, pglite or both');
  if (options.seed !== undefined && !Number.isInteger(options.seed)) throw new Error('--seed takes a whole number');
  return options;
}

/** True when something accepts connections at the PostgreSQL URL's host and port. */
function answers(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname || '127.0.0.1', port: Number(port || 5432) });
    socket.setTimeout(2_000);
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => { socket.destroy(); resolve(false); });
  });
}

/** Busy loops that keep every core at 100 % until stopped; they need no start-up wait (they spin at once). */
function startHogs(n) {
  const hogs = Array.from({ length: n }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  const stop = () => { for (const hog of hogs) if (hog.exitCode === null && hog.signalCode === null) hog.kill('SIGKILL'); };
  process.once('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => { stop(); process.exit(130); });
  return stop;
}

function vitestArgs(seed, filters, reportFile) {
  return ['vitest', 'run', '--sequence.shuffle.files', `--sequence.seed=${seed}`,
    '--reporter=dot', '--reporter=json', `--outputFile.json=${reportFile}`, ...filters];
}

function runOnce(db, pgUrl, seed, filters, reportFile) {
  const env = { ...process.env };
  if (db === 'postgres') env.TEST_DATABASE_URL = pgUrl;
  else delete env.TEST_DATABASE_URL;
  return new Promise((resolve) => {
    const child = spawn('npx', vitestArgs(seed, filters, reportFile), { cwd: root, env, stdio: 'inherit' });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const pgUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_PG;
  const pgAnswers = await answers(pgUrl);
  let dbs;
  if (options.db === 'auto') dbs = [pgAnswers ? 'postgres' : 'pglite'];
  else if (options.db === 'both') dbs = ['postgres', 'pglite'];
  else dbs = [options.db];
  if (dbs.includes('postgres') && !pgAnswers) throw new Error(`PostgreSQL does not answer at ${new URL(pgUrl).host}`);

  const baseSeed = options.seed ?? randomInt(1, 1_000_000);
  const cores = cpus().length;
  console.log(`Stress: ${options.runs} run(s) on ${dbs.join(' and ')}, ${options.hogs} busy process(es) on ${cores} core(s), ` +
    `seeds from ${baseSeed}${options.filters.length ? `, files matching: ${options.filters.join(' ')}` : ', every file'}`);

  const dir = mkdtempSync(join(tmpdir(), 'cellport-stress-'));
  const stopHogs = startHogs(options.hogs);
  const runs = [];
  const started = Date.now();
  try {
    let run = 0;
    for (const db of dbs) {
      for (let i = 0; i < options.runs; i++) {
        run++;
        const seed = baseSeed + run - 1;
        const reportFile = join(dir, `run-${run}.json`);
        console.log(`\n▶ run ${run} of ${options.runs * dbs.length}: ${db}, seed ${seed}`);
        const t0 = Date.now();
        const exitCode = await runOnce(db, pgUrl, seed, options.filters, reportFile);
        const wallMs = Date.now() - t0;
        const report = existsSync(reportFile) ? JSON.parse(readFileSync(reportFile, 'utf8')) : null;
        const counted = failuresOf(report, root);
        runs.push({ info: { db, run, seed }, exitCode, wallMs, ...counted });
        console.log(`  run ${run}: ${counted.passed} passed, ${counted.failed} failed, ${(wallMs / 1000).toFixed(1)} s, ` +
          `load average ${loadavg()[0].toFixed(1)}`);
      }
    }
  } finally {
    stopHogs();
    rmSync(dir, { recursive: true, force: true });
  }

  // The same seed over the same files replays a run's order (and so which files ran side by side); the file alone
  // is the quicker first try.
  const reproduce = (info, file) => {
    const command = (filters) => [
      ...(info.db === 'postgres' ? [`TEST_DATABASE_URL=${pgUrl}`] : []), 'npx', ...vitestArgs(info.seed, [], '').slice(0, 4), ...filters,
    ].join(' ');
    return `${command(options.filters)}   (the file alone: ${command([file])})`;
  };
  const { text, failedTests } = summarize(runs, reproduce);
  console.log(`\n━━ Stress summary (${((Date.now() - started) / 60_000).toFixed(1)} min, ${options.hogs} busy process(es) on ${cores} core(s)) ━━`);
  console.log(text);
  process.exitCode = failedTests ? 1 : 0;
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 2;
});
