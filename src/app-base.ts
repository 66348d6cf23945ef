// What every part of the Hono app shares: the global middleware, error handling and the JSON 404. The
// Worker's entry (src/index.ts) builds one app per part of the URL space on first use (src/app-parts.ts);
// each starts here, so a request meets the same middleware whichever part serves it.
import { Hono } from 'hono';
import { getPath } from 'hono/utils/url';
import { HTTPException } from 'hono/http-exception';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './app-env';
import { accountMoving, ApiError } from './lib/errors';
import { isAccountMoving } from './db/errors';
import { requestId } from './middleware/request-id';
import { controlDatabase } from './middleware/databases';
import { d1Timing } from './middleware/d1-timing';
import { customDomainHost } from './middleware/custom-domain-host';
import { isDevelopment } from './lib/environment';

/** `/api/v1/x` is the pinned spelling of `/api/x` (spec › Versioning rule 2): both reach one route. */
function routingPath(request: Request): string {
  const path = getPath(request);
  return path === '/api/v1' || path.startsWith('/api/v1/') ? `/api${path.slice('/api/v1'.length)}` : path;
}

export function errorResponse(err: Error, c: Context<AppEnv>): Response {
  if (err instanceof ApiError) {
    for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
    return c.json({ error: err.error, ...err.extra }, err.status);
  }
  // A write that reached an account's shard while the account moves (src/db/schema/account-fences.ts),
  // from any route: the client retries it once the move is done.
  if (isAccountMoving(err)) return errorResponse(accountMoving(), c);
  if (err instanceof HTTPException && err.status < 500) {
    return c.json({ error: err.message || 'Bad request.' }, err.status as ContentfulStatusCode);
  }
  // A real fault: log it with the request id, answer without internals (spec › Errors, 500).
  console.error(`[${c.var.requestId}] ${c.req.method} ${c.req.path}:`, err);
  const body: Record<string, unknown> = { error: 'Internal server error.', reference: c.var.requestId };
  if (isDevelopment(c.env)) body.detail = err.message;
  return c.json(body, 500);
}

/** A Hono app with the global middleware, error handling and 404, before any route is mounted. */
export function createBaseApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ getPath: routingPath });
  app.use('*', requestId());
  // First: every D1 call of the request goes through its observers (src/db/observed-d1.ts).
  app.use('*', controlDatabase());
  app.use('*', d1Timing());
  app.use('*', customDomainHost());
  app.onError(errorResponse);
  app.notFound((c) => c.json({ error: `No route for ${c.req.method} ${new URL(c.req.url).pathname}.` }, 404));
  return app;
}
