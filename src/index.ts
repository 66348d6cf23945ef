// The Worker entry: HTTP through the Hono app, queue consumers and cron jobs as thin dispatchers, and
// the Durable Object classes wrangler binds.
import { createApp } from './app';
import { createDb } from './db/client';
import type { Bindings } from './env';
import { consumeMessages } from './queues/messages';
import { sweepMessages } from './scheduled/messages-sweep';
import type { MessageQueueBody } from './services/mail/outbox';

export { RateLimiter } from '../durable-objects/rate-limiter';
export { IdempotencyStore } from '../durable-objects/idempotency-store';

const app = createApp();

export default {
  fetch: app.fetch,

  async queue(batch, env) {
    if (batch.queue.startsWith('signing-service-messages')) {
      await consumeMessages(batch as MessageBatch<MessageQueueBody>, env);
      return;
    }
    console.error(`No consumer for queue ${batch.queue}; retrying its messages.`);
    batch.retryAll();
  },

  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(sweepMessages(createDb(env.DB), env.MESSAGES_QUEUE));
  },
} satisfies ExportedHandler<Bindings>;
