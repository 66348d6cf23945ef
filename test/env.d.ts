// Types of the test-only bindings added in vitest.config.ts.
import type { Bindings } from '../src/env';

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
    }
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Port of the Stripe imitation (test/global-setup/stripe-imitation.mjs). */
    stripePort: number;
  }
}
