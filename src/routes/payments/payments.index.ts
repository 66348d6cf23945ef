// Mounts the payments routes.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Hono } from 'hono';
import type { AppEnv } from '../../app-env';
import * as handlers from './payments.handlers';
import * as routes from './payments.routes';

export function mountPayments(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.getPaymentSettings, handlers.getPaymentSettings);
  app.openapi(routes.updatePaymentSettings, handlers.updatePaymentSettings);
  app.openapi(routes.deletePaymentSettings, handlers.deletePaymentSettings);
  app.openapi(routes.subscribe, handlers.subscribe);
  app.openapi(routes.getSubscription, handlers.getSubscription);
  app.openAPIRegistry.register('PaymentEventData', routes.paymentEventDataSchema);
  // Only documented here; mountPaymentsWebhook serves it ahead of the tenant API's token check.
  app.openAPIRegistry.registerPath(routes.paymentsWebhook);
}

/** POST /api/payments/webhook/{account_id} (and /api/v1/…): Stripe authenticates by signature, not by API token. */
export function mountPaymentsWebhook(app: Hono<AppEnv>) {
  app.post('/api/payments/webhook/:account_id', handlers.paymentsWebhook);
}
