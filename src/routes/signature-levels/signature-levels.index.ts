// Mounts the signature level settings and the signature usage list.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import * as handlers from './signature-levels.handlers';
import * as routes from './signature-levels.routes';

export function mountSignatureLevels(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.getSignatureLevel, handlers.getSignatureLevel);
  app.openapi(routes.updateSignatureLevel, handlers.updateSignatureLevel);
  app.openapi(routes.listSignatureUsage, handlers.listSignatureUsage);
}
