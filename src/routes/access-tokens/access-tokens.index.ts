// Mounts the access token routes.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import * as handlers from './access-tokens.handlers';
import * as routes from './access-tokens.routes';

export function mountAccessTokens(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.createAccessToken, handlers.createAccessToken);
  app.openapi(routes.listAccessTokens, handlers.listAccessTokens);
  app.openapi(routes.getAccessToken, handlers.getAccessToken);
  app.openapi(routes.revokeAccessToken, handlers.revokeAccessToken);
}
