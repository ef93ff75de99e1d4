import { describe, expect, it } from 'vitest';
import { failuresOf, summarize } from './stress-report.mjs';

const root = '/repo';
const report = {
  testResults: [
    {
      name: '/repo/apps/a.test.ts', status: 'failed', message: '',
      assertionResults: [
        { fullName: 'list keeps it', status: 'failed', duration: 1520.4, failureMessages: ['AssertionError: expected 1 to be +0\n    at x'] },
        { fullName: 'list other', status: 'passed', duration: 3 },
        { fullName: 'list later', status: 'skipped' },
      ],
    },
    { name: '/repo/apps/b.test.ts', status: 'failed', message: 'Hook timed out in 60000ms\nmore', assertionResults: [] },
    { name: '/repo/apps/c.test.ts', status: 'passed', assertionResults: [{ fullName: 'c', status: 'passed', duration: 1 }] },
  ],
};

describe('stress report', () => {
  it('finds failed tests and files that failed outside any test', () => {
    const counted = failuresOf(report, root);
    expect(counted).toMatchObject({ passed: 2, failed: 2, skipped: 1 });
    expect(counted.failures).toEqual([
      { key: 'apps/a.test.ts › list keeps it', file: 'apps/a.test.ts', name: 'list keeps it', durationMs: 1520, message: 'AssertionError: expected 1 to be +0' },
      { key: 'apps/b.test.ts › (the file itself)', file: 'apps/b.test.ts', name: '(the file itself)', durationMs: null, message: 'Hook timed out in 60000ms' },
    ]);
  });

  it('lists every test that failed even once, per run with its seed, and a run that failed with no report', () => {
    const failed = failuresOf(report, root);
    const clean = failuresOf({ testResults: [report.testResults[2]] }, root);
    const runs = [
      { info: { db: 'postgres', run: 1, seed: 7 }, exitCode: 1, wallMs: 9000, ...failed },
      { info: { db: 'postgres', run: 2, seed: 8 }, exitCode: 0, wallMs: 8000, ...clean },
      { info: { db: 'pglite', run: 3, seed: 9 }, exitCode: 1, wallMs: 100, ...failuresOf(null, root) },
    ];
    const { text, failedTests } = summarize(runs, (info, file) => `replay ${info.seed} ${file}`);
    expect(failedTests).toBe(3);
    expect(text).toContain('✖ apps/a.test.ts › list keeps it — failed 1 of 2 on postgres');
    expect(text).toContain('run 1 postgres seed 7: 1520 ms, AssertionError: expected 1 to be +0');
    expect(text).toContain('replay 7 apps/a.test.ts');
    expect(text).toContain('✖ (vitest itself) — failed 1 of 1 on pglite');
    expect(summarize([runs[1]!], () => '').text).toContain('Every test passed in every run (1 runs).');
  });
});
