// The Worker entry: HTTP through the Hono app, queue consumers and cron jobs as thin dispatchers, and
// the Durable Object classes wrangler binds.
import { createApp } from './app';
import type { Bindings } from './env';
import { consumeMessages } from './queues/messages';
import { consumeSealing, type DocumentQueueBody } from './queues/sealing';
import { handleWebhookBatch } from './queues/webhooks';
import { handleScheduled } from './scheduled';
import { consumeByShard } from './queues/shard-batches';
import type { MessageQueueBody } from './env';
import type { WebhookMessage } from './env';

export { RateLimiter } from '../durable-objects/rate-limiter';
export { IdempotencyStore } from '../durable-objects/idempotency-store';

const app = createApp();

export default {
  fetch: app.fetch,

  /** Queues are told apart by name; wrangler environments may add a suffix, hence the prefix match. */
  async queue(batch, env, _ctx) {
    if (batch.queue.startsWith('signing-service-messages')) {
      await consumeByShard(batch as MessageBatch<MessageQueueBody>, env, consumeMessages);
    } else if (batch.queue.startsWith('signing-service-sealing')) {
      await consumeByShard(batch as MessageBatch<DocumentQueueBody>, env, consumeSealing);
    } else if (batch.queue.startsWith('signing-service-webhooks')) {
      await consumeByShard(batch as MessageBatch<WebhookMessage>, env, (part, scope) => handleWebhookBatch(part, scope));
    } else {
      console.error(`No consumer for queue ${batch.queue}; retrying its messages.`);
      batch.retryAll();
    }
  },

  async scheduled(controller, env, _ctx) {
    await handleScheduled(env, controller.scheduledTime);
  },
} satisfies ExportedHandler<Bindings>;
