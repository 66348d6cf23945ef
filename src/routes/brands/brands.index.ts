// Mounts the brand routes.
import type { OpenAPIHono, OpenAPIHonoOptions } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import { ApiError } from '../../lib/errors';
import { validationError } from '../../lib/validation';
import { throwValidationError } from '../openapi-helpers';
import * as handlers from './brands.handlers';
import * as routes from './brands.routes';

/**
 * The Create brand table (spec › Create brand) answers every body problem — a missing name, a name or
 * branding of the wrong type — with 422, where other routes give a missing or mistyped parameter 400.
 * Malformed JSON stays 400 (requireJsonBody, before validation). Updates follow the same rule.
 */
const brandBodyHook: NonNullable<OpenAPIHonoOptions<AppEnv>['defaultHook']> = (result, c) => {
  if (result.success) return;
  if (result.target !== 'json') return throwValidationError(result, c);
  throw new ApiError(422, validationError(result.error, (result as { data?: unknown }).data).error);
};

export function mountBrands(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.listBrands, handlers.listBrands);
  app.openapi(routes.createBrand, handlers.createBrand, brandBodyHook);
  app.openapi(routes.getBrand, handlers.getBrand);
  app.openapi(routes.updateBrand, handlers.updateBrand, brandBodyHook);
  app.openapi(routes.deleteBrand, handlers.deleteBrand);
}
