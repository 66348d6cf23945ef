// Idempotency-Key on create and send operations (spec › Limits › Idempotency); tenantRoute adds it.
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, AuditNote } from '../../app-env';
import { ApiError, unprocessable } from '../../lib/errors';
import { limitsDisabled } from '../../lib/limits';
import { requestFingerprint } from '../../services/idempotency/request-fingerprint';
import { sha256Hex } from '../../lib/crypto';
import { observeD1 } from '../../db/observed-d1';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotency-Replayed';
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** Headers that describe this request rather than the stored result; a replay sets its own. */
const PER_REQUEST_HEADERS = /^(x-request-id|x-api-version|x-ratelimit-.*|retry-after|set-cookie|idempotency-replayed)$/i;

/** Bodies up to this size are kept in the store (a Durable Object row holds 2 MB); larger ones in R2. */
export const INLINE_BODY_LIMIT = 1024 * 1024;

export type IdempotencyOptions = {
  /** Whose keys these are: keys are bound to the calling credential (rule 4). */
  owner?: (c: Context<AppEnv>) => string;
  /** How long a claimed key waits for its request before treating it as abandoned. */
  leaseMs?: number;
};

function tokenOwner(c: Context<AppEnv>): string {
  return c.var.principal.credential.key;
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
      const body = claim.bodyRef ? await c.env.FILES.get(claim.bodyRef) : null;
      if (claim.bodyRef && !body) throw new ApiError(500, 'The stored answer of this request is no longer available.');
      return new Response(body ? body.body : claim.body.byteLength ? claim.body : null, { status: claim.status, headers });
    }

    // A key whose request committed is never freed (issue 21 › 8): every database the request reaches
    // reports a write once D1 has accepted it (src/db/observed-d1.ts).
    let committed = false;
    observeD1(async (call, work) => {
      const result = await work();
      if (call.write) committed = true;
      return result;
    });
    let stored = false;
    try {
      await next();
      // 5xx before any write is the service's failure, not the request's answer: the key is freed below
      // so a retry runs again. A 5xx after a write is kept as the answer: running it again would apply
      // the change twice.
      // Likewise an answer that asks to retry later before any write (an account move's 409 with
      // Retry-After): storing it would replay the refusal to the retry it asks for.
      const retryLater = !committed && c.res.headers.has('Retry-After');
      if (!retryLater && (c.res.status < 500 || committed)) {
        const response = c.res.status < 500 ? c.res.clone() : appliedButFailed(c.var.requestId);
        const headers = [...response.headers].filter(([name]) => !PER_REQUEST_HEADERS.test(name));
        const note = c.get('audit');
        const body = await response.arrayBuffer();
        let bodyRef: string | null = null;
        if (body.byteLength > INLINE_BODY_LIMIT) {
          bodyRef = `idempotency/${await sha256Hex(`${ownerOf(c)}\n${key}`)}`;
          await c.env.FILES.put(bodyRef, body);
        }
        await store.complete(key, fingerprint, {
          status: response.status,
          headers,
          body: bodyRef ? new ArrayBuffer(0) : body,
          note: note ? JSON.stringify(note) : null,
          bodyRef,
        });
        stored = true;
      }
    } finally {
      if (!stored && !committed) await store.release(key, fingerprint).catch(() => undefined);
    }
  };
}

/** What a key answers when its request wrote and then failed: the change stands and is not run again. */
function appliedButFailed(reference: string): Response {
  return Response.json(
    {
      error:
        'This request was applied, but its answer failed before it was sent; it will not run again. Look the result up with a GET (by external_id, for example).',
      reference,
    },
    { status: 500 },
  );
}
