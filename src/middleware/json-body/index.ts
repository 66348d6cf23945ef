// Refuses a body that is not JSON on routes that take JSON (spec › Errors: 400 for a malformed body).
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../lib/errors';

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

export function requireJsonBody(): MiddlewareHandler {
  return async function requireJsonBodyMiddleware(c, next) {
    const type = (c.req.header('Content-Type') ?? '').split(';')[0].trim();
    if (!JSON_TYPE.test(type)) {
      throw new ApiError(400, `Send the request body as JSON with Content-Type: application/json${type ? ` (got ${type})` : ''}.`);
    }
    await next();
  };
}
