import { defineConfig } from 'vitest/config';

// The server, agent, package and script tests. Each fork keeps its module cache from one test file to the next
// (isolate: false): importing the server's modules again for each of ~220 files was 40 % of the step's time. A test
// file therefore leaves no global state behind (timers, environment variables, patched globals). The browser-side
// tests (happy-dom, vi.mock) need a fresh module graph per file: they run under vitest.web.config.ts.
export default defineConfig({
  test: {
    include: ['packages/**/*.test.ts', 'apps/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', 'apps/web/**'],
    globalSetup: ['apps/server/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, isolate: false } },
  },
});
