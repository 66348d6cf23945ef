// The real-browser tests (test/e2e): Node drives Debian's Chromium with playwright-core against
// `wrangler dev`. The files that need only the default server share one (test/e2e/shared-server.ts,
// started on first use); those that need another configuration start their own on a spare port.
// Kept out of the workerd suite.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 240_000,
    // The first file to ask for the run's setup or shared server waits for setup.mjs in its beforeAll:
    // 4–5 minutes on a loaded 2-core machine.
    hookTimeout: 600_000,
    fileParallelism: false,
    globalSetup: ['./test/e2e/shared-server.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
