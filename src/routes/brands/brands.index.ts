// Mounts the brand routes.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import * as handlers from './brands.handlers';
import * as routes from './brands.routes';

export function mountBrands(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.listBrands, handlers.listBrands);
  app.openapi(routes.createBrand, handlers.createBrand);
  app.openapi(routes.getBrand, handlers.getBrand);
  app.openapi(routes.updateBrand, handlers.updateBrand);
  app.openapi(routes.deleteBrand, handlers.deleteBrand);
}
