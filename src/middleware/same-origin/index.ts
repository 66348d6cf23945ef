// CSRF protection for cookie- or link-authorised browser routes (the signing page): a state-changing
// request must come from a page of this origin. Browsers always send Origin on POST/PUT/DELETE from a
// page; without it, only a JSON body (which a cross-site form cannot send without a CORS preflight) passes.
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../lib/errors';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function sameOrigin(): MiddlewareHandler {
  return async function sameOriginMiddleware(c, next) {
    if (SAFE.has(c.req.method)) return next();
    const origin = c.req.header('Origin');
    const site = c.req.header('Sec-Fetch-Site');
    const own = new URL(c.req.url).origin;
    if (origin && origin !== 'null') {
      if (origin !== own) throw new ApiError(403, 'This request must come from the signing page itself.');
    } else if (site && site !== 'same-origin' && site !== 'none') {
      throw new ApiError(403, 'This request must come from the signing page itself.');
    } else if (!/^application\/json\b/i.test(c.req.header('Content-Type') ?? '')) {
      throw new ApiError(403, 'This request must come from the signing page itself.');
    }
    await next();
  };
}
