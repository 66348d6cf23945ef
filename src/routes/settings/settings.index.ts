// Mounts the account settings routes.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import * as handlers from './settings.handlers';
import * as routes from './settings.routes';

export function mountSettings(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.getAccountSettings, handlers.getAccountSettings);
  app.openapi(routes.updateAccountSettings, handlers.updateAccountSettings);
}
