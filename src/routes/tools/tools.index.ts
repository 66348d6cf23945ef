// Mounts the tools routes.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import { registerSingleFileBodies } from '../single-file-upload';
import * as handlers from './tools.handlers';
import * as routes from './tools.routes';

export function mountTools(app: OpenAPIHono<AppEnv>) {
  registerSingleFileBodies(app, 'VerifyUpload', 'The PDF to check');
  app.openapi(routes.verifyPdf, handlers.verifyPdf);
}
