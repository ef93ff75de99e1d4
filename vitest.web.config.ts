import { defineConfig } from 'vitest/config';

// The browser-side unit tests (apps/web): each file in a fresh module graph, as they mock modules (vi.mock) and run
// in happy-dom, whose globals must not reach the next file. `npm run test:unit` runs them after vitest.config.ts.
export default defineConfig({
  test: {
    include: ['apps/web/**/*.test.ts', 'apps/web/**/*.test.tsx'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2 } },
  },
});
