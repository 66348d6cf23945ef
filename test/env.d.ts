// Types of the test-only bindings added in vitest.config.ts.
import type { Bindings } from '../src/env';

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
      /** test/global/pdf-tools-server.ts: POST a PDF, get pdfsig and qpdf --check output. */
      PDF_TOOLS_URL: string;
      /** test/global/sms-provider-server.ts: a Twilio-compatible API that records and can fail. */
      SMS_PROVIDER_URL: string;
      /** test/global/doh-resolver-server.ts: the DoH resolver webhook host names are looked up with. */
      DOH_RESOLVER_URL: string;
      /** test/global-setup/tsa.mjs: a local RFC 3161 TSA (POST /tsa) and OCSP responder (POST /ocsp); tests set TSA_URLS from it. */
      TEST_TSA_URL: string;
      /** test/global-setup/csc-imitation.mjs: origin of the CSC API v2 imitation (accounts use `<origin>/t/<own prefix>/csc/v2`). */
      TEST_CSC_URL: string;
      /** Port of the webhook receiver started by test/receiver/global-setup.ts. */
      RECEIVER_PORT: number;
      /** test/global-setup/browser-rendering.mjs: records every request; GET /__hits/<prefix> lists them. */
      HIT_RECORDER_URL: string;
    }
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Port of the Stripe imitation (test/global-setup/stripe-imitation.mjs). */
    stripePort: number;
    /** Port of the Cloudflare custom hostnames imitation (test/global-setup/cloudflare-imitation.mjs). */
    cloudflarePort: number;
    /** Port of the request recorder (test/global-setup/browser-rendering.mjs). */
    hitRecorderPort: number;
    /** Base URL of the local TSA and OCSP responder (test/global-setup/tsa.mjs). */
    tsaUrl: string;
    /** PEM of the local TSA's test root CA. */
    tsaCaPem: string;
    /** Port of the CSC API v2 imitation (test/global-setup/csc-imitation.mjs). */
    cscPort: number;
    /** PEM of the CSC imitation's test root CA. */
    cscRootPem: string;
    /** PKCS#12 files (base64) and their password, made by test/global/pkcs12-fixtures.ts. */
    pkcs12: { password: string; files: Record<'good' | 'ecChain' | 'mismatch' | 'expired' | 'legacy', string> };
  }
}
