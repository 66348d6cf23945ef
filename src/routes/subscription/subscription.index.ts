// Mounts the subscription routes.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Hono } from 'hono';
import type { AppEnv } from '../../app-env';
import * as handlers from './subscription.handlers';
import * as routes from './subscription.routes';

export function mountSubscription(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.createCheckoutSession, handlers.createCheckoutSession);
  // Only documented here; mountStripeWebhook serves it ahead of the tenant API's token check.
  app.openAPIRegistry.registerPath(routes.stripeWebhook);
}

/** POST /api/subscription/webhook (and /api/v1/…): Stripe authenticates by signature, not by API token. */
export function mountStripeWebhook(app: Hono<AppEnv>) {
  app.post(`/api${routes.stripeWebhook.path}`, handlers.stripeWebhook);
}
