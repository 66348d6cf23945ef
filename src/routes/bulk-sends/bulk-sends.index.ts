// Mounts the bulk send routes.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import * as handlers from './bulk-sends.handlers';
import * as routes from './bulk-sends.routes';

export function mountBulkSends(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.register('BulkSendJson', routes.bulkSendJsonBody);
  app.openAPIRegistry.register('BulkSendMultipart', routes.bulkSendMultipartBody);
  app.openapi(routes.createBulkSend, handlers.createBulkSend);
  app.openapi(routes.getBulkSend, handlers.getBulkSend);
  app.openapi(routes.listBulkSendRows, handlers.listBulkSendRows);
}
