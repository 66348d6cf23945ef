// Tests run inside workerd against real local D1, R2, Durable Objects and Queues.
import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

/** The partner key tests present on /api/partner/v1 (two keys: the secret is a comma-separated list). */
export const TEST_PARTNER_KEYS = 'ptk_testPartnerKeyOne0000000000000000,ptk_testPartnerKeyTwo0000000000000000';

/**
 * Files that get a runtime of their own. Every other file shares one workerd runtime with the files run
 * before it (vitest's `isolate: false`): its modules are evaluated once and its storage is not wiped
 * between files, so those tests make their own accounts and read only what they made. Starting a runtime
 * costs a few seconds a file, three quarters of the suite's time when each had its own (docs/testing.md).
 * A file belongs here when it depends on a fresh runtime: which modules are loaded (cold start), or
 * everything on a shard or in a queue being its own.
 */
const OWN_RUNTIME = [
  'test/cold-start.test.ts',
  'test/api/account-move.test.ts',
  'test/faults/completion-faults.test.ts',
  'test/scheduled/fenced-neighbours.test.ts',
  // Counts every D1 call of a move, so a cache a file before it warmed would skip calls it expects.
  'test/faults/account-move-faults.test.ts',
];

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, 'migrations'));
  return {
    // Real DOCX fixtures are imported with `?inline` like the PDF one (Vite knows .pdf, not .docx).
    assetsInclude: ['**/*.docx'],
    plugins: [
      cloudflareTest(({ inject }) => ({
        wrangler: { configPath: './wrangler.toml' },
        // wrangler.toml's `main` is the split build (scripts/build-worker.mjs); the tests run the sources.
        main: './src/index.ts',
        miniflare: {
          bindings: {
            ENVIRONMENT: 'test',
            // Drains run the moment a test asks (production spaces them 50 ms: services/webhooks/drain-pacing.ts,
            // tested on its own in test/services/webhook-drain-pacing.test.ts).
            WEBHOOK_DRAIN_SPACING_MS: '0',
            // The service's own origin, as production sets it: requests to it cost no custom-domain lookup
            // (src/middleware/custom-domain-host); test/helpers.ts › api() calls it.
            APP_URL: 'https://api.test',
            TEST_MIGRATIONS: migrations,
            // Local servers started by test/global/setup.ts.
            PDF_TOOLS_URL: inject('pdfToolsUrl'),
            SMS_PROVIDER_URL: inject('smsProviderUrl'),
            // Webhook host names are looked up here (test/global/doh-resolver-server.ts), never on the internet.
            DOH_RESOLVER_URL: inject('dohResolverUrl'),
            PARTNER_API_KEYS: TEST_PARTNER_KEYS,
            // A fixed test key for secrets encrypted at rest (uploaded signing keys).
            ENCRYPTION_KEY: 'dGVzdC1lbmNyeXB0aW9uLWtleS0zMi1ieXRlcyEhISE=',
            // A real local HTTP server imitating Stripe (test/global-setup/stripe-imitation.mjs).
            STRIPE_SECRET_KEY: 'sk_test_imitation',
            STRIPE_API_BASE: `http://127.0.0.1:${inject('stripePort')}`,
            // Tests sign their own Stripe webhook deliveries with it (test/api/subscription-webhook.test.ts).
            STRIPE_WEBHOOK_SECRET: 'whsec_test_signing_secret',
            // A real local HTTP server imitating Cloudflare's custom hostnames API (test/global-setup/cloudflare-imitation.mjs).
            CF_API_BASE: `http://127.0.0.1:${inject('cloudflarePort')}/client/v4`,
            CF_API_TOKEN: 'cf_test_imitation_token',
            CF_ZONE_ID: 'zone0test0imitation',
            // A real local RFC 3161 TSA and OCSP responder (test/global-setup/tsa.mjs). TSA_URLS itself is
            // emptied (wrangler.toml names public authorities), so tests seal at B-B unless they ask for a
            // timestamp (test/services/long-term-validation.test.ts).
            TSA_URLS: '',
            TEST_TSA_URL: inject('tsaUrl'),
            // The webhook receiver (test/receiver) listens on loopback, which only this exemption lets through.
            RECEIVER_PORT: inject<number>('receiverPort'),
            WEBHOOK_ALLOW_HOSTS: `127.0.0.1:${inject<number>('receiverPort')}`,
            // A real local CSC API v2 signing service (test/global-setup/csc-imitation.mjs); accounts' QES provider
            // URLs point at it over loopback, which only this exemption lets through (src/services/qes/provider-url.ts).
            TEST_CSC_URL: `http://127.0.0.1:${inject<number>('cscPort')}`,
            QES_PROVIDER_ALLOW_HOSTS: `127.0.0.1:${inject<number>('cscPort')}`,
            // Records every request (test/global-setup/browser-rendering.mjs): rendered HTML must never reach it.
            HIT_RECORDER_URL: `http://127.0.0.1:${inject<number>('hitRecorderPort')}`,
          },
          // Tests drive the webhooks consumer themselves (explicit clocks); a queue nobody consumes keeps
          // background deliveries out of their way.
          // The sealing queue likewise: tests run the sealing job and thumbnail batches themselves.
          queueProducers: {
            WEBHOOK_QUEUE: { queueName: 'signing-service-webhooks-test' },
            SEALING_QUEUE: { queueName: 'signing-service-sealing-test' },
          },
        },
      })),
    ],
    test: {
      globalSetup: [
        './test/global/setup.ts',
        './test/global-setup/stripe-imitation.mjs',
        './test/global-setup/cloudflare-imitation.mjs',
        './test/global-setup/tsa.mjs',
        './test/receiver/global-setup.mjs',
        './test/global-setup/browser-rendering.mjs',
        './test/global-setup/csc-imitation.mjs',
      ],
      setupFiles: ['./test/setup.ts'],
      reporters: ['default', './test/summary-reporter.ts'],
      projects: [
        // Projects take their own file lists: with `extends`, vitest would add these to a root `include`.
        {
          extends: true,
          test: { name: 'shared-runtime', isolate: false, include: ['test/**/*.test.ts'], exclude: ['test/e2e/**', ...OWN_RUNTIME] },
        },
        { extends: true, test: { name: 'own-runtime', include: OWN_RUNTIME } },
      ],
    },
  };
});
