// The Worker entry: HTTP through the Hono app, plus the Durable Object classes wrangler binds.
import { createApp } from './app';
import type { Bindings } from './env';

export { RateLimiter } from '../durable-objects/rate-limiter';
export { IdempotencyStore } from '../durable-objects/idempotency-store';

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Bindings>;
