// Idempotency-Key on create and send operations (spec › Limits › Idempotency); tenantRoute adds it.
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, AuditNote } from '../../env';
import { ApiError, unprocessable } from '../../lib/errors';
import { limitsDisabled } from '../../lib/limits';
import { requestFingerprint } from '../../services/idempotency/request-fingerprint';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotency-Replayed';
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** Headers that describe this request rather than the stored result; a replay sets its own. */
const PER_REQUEST_HEADERS = /^(x-request-id|x-api-version|x-ratelimit-.*|retry-after|set-cookie|idempotency-replayed)$/i;

export type IdempotencyOptions = {
  /** Whose keys these are: keys are bound to the calling credential (rule 4). */
  owner?: (c: Context<AppEnv>) => string;
  /** How long a claimed key waits for its request before treating it as abandoned. */
  leaseMs?: number;
};

function tokenOwner(c: Context<AppEnv>): string {
  return `token:${c.var.principal.token.id}`;
}

export function idempotency(options: IdempotencyOptions = {}): MiddlewareHandler<AppEnv> {
  const ownerOf = options.owner ?? tokenOwner;
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  return async function idempotencyMiddleware(c, next) {
    const key = c.req.header(IDEMPOTENCY_HEADER);
    if (key === undefined || limitsDisabled(c.env)) return next();
    if (!KEY_PATTERN.test(key) || !key.trim()) {
      throw unprocessable(`${IDEMPOTENCY_HEADER} must be 1 to 255 printable ASCII characters, such as a UUID.`);
    }

    const url = new URL(c.req.url);
    const fingerprint = await requestFingerprint({
      method: c.req.method,
      path: url.pathname,
      search: url.search,
      contentType: c.req.header('Content-Type') ?? null,
      // HonoRequest caches the body, so the route's validator can still read it.
      body: await c.req.arrayBuffer(),
    });
    const store = c.env.IDEMPOTENCY.get(c.env.IDEMPOTENCY.idFromName(ownerOf(c)));
    const claim = await store.begin(key, fingerprint, leaseMs);

    if (claim.outcome === 'mismatch') {
      throw unprocessable(`This ${IDEMPOTENCY_HEADER} was already used for a different request; send a new key with a different body.`);
    }
    if (claim.outcome === 'in_flight') {
      throw new ApiError(409, `A request with this ${IDEMPOTENCY_HEADER} is still being processed; retry once it has finished.`);
    }
    if (claim.outcome === 'replay') {
      const original = claim.note ? (JSON.parse(claim.note) as AuditNote) : undefined;
      c.set('audit', { action: 'idempotency.replay', resourceType: original?.resourceType, resourceId: original?.resourceId });
      const headers = new Headers(claim.headers);
      headers.set(REPLAYED_HEADER, 'true');
      return new Response(claim.body.byteLength ? claim.body : null, { status: claim.status, headers });
    }

    let stored = false;
    try {
      await next();
      // 5xx is the service's failure, not the request's answer: free the key so a retry runs again.
      if (c.res.status < 500) {
        const response = c.res.clone();
        const headers = [...response.headers].filter(([name]) => !PER_REQUEST_HEADERS.test(name));
        const note = c.get('audit');
        await store.complete(key, fingerprint, {
          status: response.status,
          headers,
          body: await response.arrayBuffer(),
          note: note ? JSON.stringify(note) : null,
        });
        stored = true;
      }
    } finally {
      if (!stored) await store.release(key, fingerprint).catch(() => undefined);
    }
  };
}
