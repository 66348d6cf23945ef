// The real-browser tests (test/e2e): Node drives Debian's Chromium with playwright-core against
// `wrangler dev` on a spare port, which each test file starts itself. Kept out of the workerd suite.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 240_000,
    hookTimeout: 240_000,
    fileParallelism: false,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
