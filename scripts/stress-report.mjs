// The bookkeeping of `npm run test:stress` (scripts/stress.mjs), apart from the processes so it can be tested:
// what failed in one Vitest JSON report, and the summary over every run.

/**
 * @typedef {{ db: string, run: number, seed: number }} RunInfo
 * @typedef {{ key: string, file: string, name: string, durationMs: number | null, message: string }} Failure
 * @typedef {{ info: RunInfo, exitCode: number | null, wallMs: number, passed: number, failed: number, skipped: number,
 *   failures: Failure[] }} RunResult
 */

/** The first line of a failure message that says something (Vitest puts the assertion first). */
function firstLine(text) {
  return String(text ?? '').split('\n').map((l) => l.trim()).find(Boolean)?.slice(0, 300) ?? '(no message)';
}

/**
 * Every failure in one Vitest JSON report (`--reporter=json`): failed tests, and files that failed outside any test
 * (a hook, an import, a suite that did not load), which have no failed test to show for it.
 * @param {any} report the parsed JSON report
 * @param {string} root the repository root, cut from file paths
 * @returns {{ passed: number, failed: number, skipped: number, failures: Failure[] }}
 */
export function failuresOf(report, root) {
  const failures = [];
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const file of report?.testResults ?? []) {
    const path = String(file.name ?? '?').replace(`${root.replace(/\/$/, '')}/`, '');
    let failedHere = 0;
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'passed') passed++;
      else if (test.status === 'failed') {
        failed++;
        failedHere++;
        const name = test.fullName ?? [...(test.ancestorTitles ?? []), test.title].join(' ');
        failures.push({
          key: `${path} › ${name}`, file: path, name,
          durationMs: typeof test.duration === 'number' ? Math.round(test.duration) : null,
          message: firstLine((test.failureMessages ?? [])[0]),
        });
      } else skipped++;
    }
    if (file.status === 'failed' && failedHere === 0) {
      failed++;
      failures.push({ key: `${path} › (the file itself)`, file: path, name: '(the file itself)', durationMs: null, message: firstLine(file.message) });
    }
  }
  return { passed, failed, skipped, failures };
}

/**
 * The summary over all runs: one line per run, then every test that failed even once, with each failing run's
 * database, seed and timing and a command that replays that run's file order.
 * @param {RunResult[]} runs
 * @param {(info: RunInfo, file: string) => string} reproduce the command line for one failure
 * @returns {{ text: string, failedTests: number }}
 */
export function summarize(runs, reproduce) {
  const lines = [];
  for (const r of runs) {
    const outcome = r.exitCode !== 0 && r.failed === 0 ? `, vitest exited ${r.exitCode}` : '';
    lines.push(`run ${r.info.run} ${r.info.db} seed ${r.info.seed}: ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped, ` +
      `${(r.wallMs / 1000).toFixed(1)} s${outcome}`);
  }
  const byKey = new Map();
  for (const r of runs) {
    for (const f of r.failures) {
      const seen = byKey.get(f.key) ?? [];
      seen.push({ ...f, info: r.info });
      byKey.set(f.key, seen);
    }
    if (r.exitCode !== 0 && r.failures.length === 0) {
      const key = '(vitest itself)';
      const seen = byKey.get(key) ?? [];
      seen.push({ key, file: '', name: key, durationMs: null, message: `exited ${r.exitCode} without a failed test in its report`, info: r.info });
      byKey.set(key, seen);
    }
  }
  lines.push('');
  if (byKey.size === 0) {
    lines.push(`Every test passed in every run (${runs.length} runs).`);
  } else {
    lines.push(`${byKey.size} test(s) failed at least once:`);
    for (const [key, seen] of byKey) {
      const runsOfDb = (db) => runs.filter((r) => r.info.db === db).length;
      const dbs = [...new Set(seen.map((s) => s.info.db))].map((db) => `${seen.filter((s) => s.info.db === db).length} of ${runsOfDb(db)} on ${db}`);
      lines.push(`  ✖ ${key} — failed ${dbs.join(', ')}`);
      for (const s of seen) {
        const took = s.durationMs === null ? '' : `${s.durationMs} ms, `;
        lines.push(`      run ${s.info.run} ${s.info.db} seed ${s.info.seed}: ${took}${s.message}`);
        if (s.file) lines.push(`        replay: ${reproduce(s.info, s.file)}`);
      }
    }
  }
  return { text: lines.join('\n'), failedTests: byKey.size };
}
