import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Browser tests: each spec file starts its own built server and one Chromium, so files run one at a time
// (a 2-core machine runs a server, a browser and an altcha proof-of-work at once already).
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['e2e/**/*.e2e.ts'],
    fileParallelism: false,
    pool: 'forks',
    testTimeout: 90_000,
    hookTimeout: 90_000,
    reporters: ['default'],
  },
});
