// Mounts the subscription routes.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import * as handlers from './subscription.handlers';
import * as routes from './subscription.routes';

export function mountSubscription(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.createCheckoutSession, handlers.createCheckoutSession);
}
