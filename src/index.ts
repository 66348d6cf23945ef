// The Worker entry: HTTP through the Hono app, the webhooks queue consumer, and the cron safety net.
import { createApp } from './app';
import type { Bindings } from './env';
import { handleWebhookBatch } from './queues/webhooks';
import { handleScheduled } from './scheduled';
import type { WebhookMessage } from './services/webhooks/queue';

const app = createApp();

export default {
  fetch: app.fetch,
  async queue(batch, env, _ctx) {
    await handleWebhookBatch(batch, env);
  },
  async scheduled(controller, env, _ctx) {
    await handleScheduled(env, controller.scheduledTime);
  },
} satisfies ExportedHandler<Bindings, WebhookMessage>;
