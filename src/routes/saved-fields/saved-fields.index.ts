// Mounts the saved field routes.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import * as handlers from './saved-fields.handlers';
import * as routes from './saved-fields.routes';

export function mountSavedFields(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.listSavedFields, handlers.listSavedFields);
  app.openapi(routes.createSavedField, handlers.createSavedField);
  app.openapi(routes.deleteSavedField, handlers.deleteSavedField);
}
