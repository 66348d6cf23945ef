// Mounts the embedding routes on the tenant API and documents the embed JWT credential.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import * as handlers from './embed.handlers';
import * as routes from './embed.routes';
import { cors } from 'hono/cors';

export function mountEmbed(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'EmbedToken', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'An embed JWT from POST /api/embed/token (4 hours, one resource), as `Authorization: Bearer <token>`; docs/embedding.md.',
  });
  app.openapi(routes.mintEmbedToken, handlers.mintEmbedToken);
  app.openapi(routes.rotateEmbedKey, handlers.rotateEmbedKey);
  app.openapi(routes.getEmbedTemplate, handlers.getEmbedTemplate);
  app.openapi(routes.updateEmbedTemplate, handlers.updateEmbedTemplate);
  app.openapi(routes.getEmbedSubmission, handlers.getEmbedSubmission);
  app.openapi(routes.saveEmbedValues, handlers.saveEmbedValues);
  app.openapi(routes.completeEmbedSubmission, handlers.completeEmbedSubmission);
}

/**
 * CORS for the routes an embed token calls (/api/embed/template/*, /api/embed/submission/*): the token
 * is the only credential there (never a cookie), so any origin may call with `Authorization`, and
 * preflights are answered before authentication (docs/embedding.md › CORS). Minting is server-side: none.
 */
export function embedCors() {
  return cors({
    origin: '*',
    allowMethods: ['GET', 'PUT', 'POST', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type'],
    exposeHeaders: ['X-Request-Id', 'X-API-Version', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'],
    maxAge: 600,
  });
}
