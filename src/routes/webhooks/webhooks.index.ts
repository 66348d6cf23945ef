// Mounts the webhook endpoint and delivery log routes.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import * as handlers from './webhooks.handlers';
import * as routes from './webhooks.routes';

export function mountWebhooks(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.createWebhook, handlers.createWebhook);
  app.openapi(routes.listWebhooks, handlers.listWebhooks);
  app.openapi(routes.getWebhook, handlers.getWebhook);
  app.openapi(routes.updateWebhook, handlers.updateWebhook);
  app.openapi(routes.deleteWebhook, handlers.deleteWebhook);
  app.openapi(routes.listDeliveries, handlers.listDeliveries);
  app.openapi(routes.getDelivery, handlers.getDelivery);
  app.openapi(routes.redeliver, handlers.redeliver);
  app.openapi(routes.testWebhook, handlers.testWebhook);
}
