// The Worker entry: HTTP through the Hono app, queue consumers and cron jobs as thin dispatchers, and
// the Durable Object classes wrangler binds. Everything else loads on first use (decisions.md › Cold
// start): the app in parts (src/app-parts.ts), each consumer and the cron jobs when they first run.
import { fetchPart } from './app-parts';
import type { Bindings } from './env';
import type { DocumentQueueBody } from './queues/sealing';
import type { MessageQueueBody } from './env';
import type { WebhookMessage } from './env';

export { RateLimiter } from '../durable-objects/rate-limiter';
export { IdempotencyStore } from '../durable-objects/idempotency-store';

export default {
  fetch: fetchPart,

  /** Queues are told apart by name; wrangler environments may add a suffix, hence the prefix match. */
  async queue(batch, env, _ctx) {
    const { consumeByShard } = await import('./queues/shard-batches');
    if (batch.queue.startsWith('signing-service-messages')) {
      const { consumeMessages } = await import('./queues/messages');
      await consumeByShard(batch as MessageBatch<MessageQueueBody>, env, consumeMessages);
    } else if (batch.queue.startsWith('signing-service-sealing')) {
      const { consumeSealing } = await import('./queues/sealing');
      await consumeByShard(batch as MessageBatch<DocumentQueueBody>, env, consumeSealing);
    } else if (batch.queue.startsWith('signing-service-webhooks')) {
      const { handleWebhookBatch } = await import('./queues/webhooks');
      await consumeByShard(batch as MessageBatch<WebhookMessage>, env, (part, scope) => handleWebhookBatch(part, scope));
    } else {
      console.error(`No consumer for queue ${batch.queue}; retrying its messages.`);
      batch.retryAll();
    }
  },

  async scheduled(controller, env, _ctx) {
    const { handleScheduled } = await import('./scheduled');
    await handleScheduled(env, controller.scheduledTime);
  },
} satisfies ExportedHandler<Bindings>;
