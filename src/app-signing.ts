// The pages a signer and a public link's visitor open: /s (signing) and /l (document links). The
// Worker's entry builds this part on the first such request (src/app-parts.ts): no API schema is built.
import type { Hono } from 'hono';
import type { AppEnv } from './app-env';
import { createBaseApp } from './app-base';
import { createPublicLinkRoutes } from './routes/document-link-downloads/document-link-downloads.index';
import { PUBLIC_LINK_PREFIX } from './services/document-links/links';
import { createSigningRoutes } from './routes/signing/signing.index';
import { SIGNING_PREFIX } from './routes/signing/signing.routes';

/** The /s and /l part on its own: what the entry builds for a signing page or a public link. */
export function createSigningApp(): Hono<AppEnv> {
  const app = createBaseApp();
  app.route(SIGNING_PREFIX, createSigningRoutes());
  app.route(PUBLIC_LINK_PREFIX, createPublicLinkRoutes());
  return app;
}
