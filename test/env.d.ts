// Types of the test-only bindings added in vitest.config.ts.
import type { Bindings } from '../src/env';

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
      /** Port of the webhook receiver started by test/receiver/global-setup.ts. */
      RECEIVER_PORT: number;
    }
  }
}
