// The Worker's HTTP entry builds its app in parts, each on the first request that needs it, so a new
// isolate evaluates no route, schema or engine before its first request and a request pays only for
// its part (decisions.md › Cold start): /api (src/app-api.ts), the signing and public-link pages
// (src/app-signing.ts), and the whole app for everything else (src/app.ts: consoles, OAuth, MCP, /dev).
// Each part has the same global middleware, error handling and 404 (src/app-base.ts), and serves its
// paths with the same routes, in the same order, as the whole app (test/app-parts.test.ts).
import { getPath } from 'hono/utils/url';
import type { Bindings } from './env';

type Part = 'api' | 'signing' | 'all';
type Fetch = (request: Request, env: Bindings, ctx: ExecutionContext) => Response | Promise<Response>;

/** The part that serves a path: /api and /api/…, /s/… and /l/… (SIGNING_PREFIX, PUBLIC_LINK_PREFIX), else all. */
export function partOf(path: string): Part {
  if (path === '/api' || path.startsWith('/api/')) return 'api';
  if (path.startsWith('/s/') || path.startsWith('/l/')) return 'signing';
  return 'all';
}

const built = new Map<Part, Promise<Fetch>>();

function build(part: Part): Promise<Fetch> {
  switch (part) {
    case 'api':
      return import('./app-api').then(({ createApiApp }) => createApiApp().fetch);
    case 'signing':
      return import('./app-signing').then(({ createSigningApp }) => createSigningApp().fetch);
    case 'all':
      return import('./app').then(
        ({ createApp }) =>
          // An MCP tool call goes through this entry too, so it builds only the part it calls.
          createApp(async (request, c) => fetchPart(request, c.env, c.executionCtx as ExecutionContext)).fetch,
      );
  }
}

/** Serves a request with its part of the app, built once per isolate. */
export async function fetchPart(request: Request, env: Bindings, ctx: ExecutionContext): Promise<Response> {
  const part = partOf(getPath(request));
  let fetch = built.get(part);
  if (!fetch) {
    fetch = build(part);
    built.set(part, fetch);
    // A failed import is tried again by the next request rather than kept.
    fetch.catch(() => built.delete(part));
  }
  return (await fetch)(request, env, ctx);
}
