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
            // The webhook receiver (test/receiver) listens on loopback, which only this exemption lets through.
            RECEIVER_PORT: inject<number>('receiverPort'),
            WEBHOOK_ALLOW_HOSTS: `127.0.0.1:${inject<number>('receiverPort')}`,
          },
          // Tests drive the webhooks consumer themselves (explicit clocks); a queue nobody consumes keeps
          // background deliveries out of their way.
          queueProducers: { WEBHOOK_QUEUE: { queueName: 'signing-service-webhooks-test' } },
        },
      })),
    ],
    test: {
      include: ['test/**/*.test.ts'],
      exclude: ['test/e2e/**'],
      globalSetup: ['./test/receiver/global-setup.mjs'],
      setupFiles: ['./test/setup.ts'],
    },
  };
});
