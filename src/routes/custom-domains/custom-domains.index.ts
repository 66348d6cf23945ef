// Mounts the custom signing domain routes.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import * as handlers from './custom-domains.handlers';
import * as routes from './custom-domains.routes';

export function mountCustomDomains(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.createCustomDomain, handlers.createCustomDomain);
  app.openapi(routes.listCustomDomains, handlers.listCustomDomains);
  app.openapi(routes.getCustomDomain, handlers.getCustomDomain);
  app.openapi(routes.updateCustomDomain, handlers.updateCustomDomain);
  app.openapi(routes.verifyCustomDomain, handlers.verifyCustomDomain);
  app.openapi(routes.deleteCustomDomain, handlers.deleteCustomDomain);
}
