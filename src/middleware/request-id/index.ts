// Gives every response a unique X-Request-Id and the X-API-Version of the surface it belongs to.
import type { MiddlewareHandler } from 'hono';
import { randomBase62 } from '../../lib/random';
import type { AppEnv } from '../../app-env';

export type RequestIdOptions = {
  /** Header carrying the id on the response. */
  headerName?: string;
  generate?: () => string;
};

export function requestId(options: RequestIdOptions = {}): MiddlewareHandler<AppEnv> {
  const headerName = options.headerName ?? 'X-Request-Id';
  const generate = options.generate ?? (() => `req_${randomBase62(20)}`);
  // A caller-supplied id is deliberately not reused: ids must be unique to be useful as error references.
  return async function requestIdMiddleware(c, next) {
    const id = generate();
    c.set('requestId', id);
    await next();
    c.header(headerName, id);
    // spec › Versioning: the partner control plane is pinned separately.
    c.header('X-API-Version', c.req.path.startsWith('/api/partner/') ? 'partner-v1' : 'v1');
  };
}
