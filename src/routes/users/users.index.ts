// Mounts the users routes.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import * as handlers from './users.handlers';
import * as routes from './users.routes';

export function mountUsers(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.getCurrentUser, handlers.getCurrentUser);
  app.openapi(routes.listUsers, handlers.listUsers);
  app.openapi(routes.getUser, handlers.getUser);
  app.openapi(routes.createUser, handlers.createUser);
  app.openapi(routes.updateUser, handlers.updateUser);
  app.openapi(routes.archiveUser, handlers.archiveUser);
}
