// Route middleware of the /api/embed/* routes: only an embed JWT of the route's kind gets through, and a
// write needs its permission. Which resource the token names is the handler's check (404 otherwise).
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../app-env';
import { forbidden, unauthorized } from '../../lib/errors';
import type { EmbedResourceType } from '../../services/embed/embed-tokens';

export function requireEmbedGrant(resourceType: EmbedResourceType, permission?: string): MiddlewareHandler<AppEnv> {
  return async function requireEmbedGrantMiddleware(c, next) {
    const grant = c.var.embed;
    if (!grant || grant.resourceType !== resourceType) {
      throw unauthorized(
        `This route takes an embed token for a ${resourceType === 'template' ? 'template (builder)' : 'submission (signing form)'}, minted with POST /api/embed/token, as Authorization: Bearer <token>.`,
      );
    }
    if (permission && !grant.permissions.includes(permission)) {
      throw forbidden(`This embed token does not grant "${permission}"; mint one with that permission.`);
    }
    await next();
  };
}
