import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Browser tests: each spec file starts its own built server (its own port, database and seeded modem ports) and one
// Chromium. Two files run at once: a file spends much of its time waiting (for a page's answers, a toast to close, a
// rotation), so two at a time took the step from 699 s to 519 s on a 2-core machine (2026-12-07), each file about
// 1.35 times slower. The timeouts below, and the 15 s of a page's actions (support/browser.ts), allow for that.
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['e2e/**/*.e2e.ts'],
    fileParallelism: true,
    poolOptions: { forks: { maxForks: 2 } },
    pool: 'forks',
    testTimeout: 90_000,
    hookTimeout: 90_000,
    reporters: ['default'],
  },
});
