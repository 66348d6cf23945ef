// Mounts GET /api/branding_options.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import * as handlers from './branding-options.handlers';
import * as routes from './branding-options.routes';

export function mountBrandingOptions(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.getBrandingOptions, handlers.getBrandingOptions);
}
