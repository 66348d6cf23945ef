// Tests run inside workerd against real local D1, R2, Durable Objects and Queues.
import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, 'migrations'));
  return {
    plugins: [
      cloudflareTest(({ inject }) => ({
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          bindings: {
            ENVIRONMENT: 'test',
            TEST_MIGRATIONS: migrations,
            // Local servers started by test/global/setup.ts.
            PDF_TOOLS_URL: inject('pdfToolsUrl'),
            SMS_PROVIDER_URL: inject('smsProviderUrl'),
          },
        },
      })),
    ],
    test: {
      include: ['test/**/*.test.ts'],
      exclude: ['test/e2e/**'],
      globalSetup: ['./test/global/setup.ts'],
      setupFiles: ['./test/setup.ts'],
      reporters: ['default', './test/summary-reporter.ts'],
    },
  };
});
