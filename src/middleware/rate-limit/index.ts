// Per-credential rate limiting through the RateLimiter Durable Object (spec › Limits, Errors › 429).
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../app-env';
import { ApiError } from '../../lib/errors';
import { limitsDisabled, RATE_WINDOW_MS } from '../../lib/limits';
import type { RateLimitDecision } from '../../../durable-objects/rate-limiter';
import { SlotLeases } from './slot-leases';
import { secondsUntil } from '../../lib/time';

export type RateLimitOptions = {
  /** Which log a request counts against, e.g. `token:42`; runs after authentication. */
  key: (c: Context<AppEnv>) => string;
  /** Requests allowed per window. */
  limit: number | ((c: Context<AppEnv>) => number);
  windowMs?: number;
  /** Where this isolate keeps the slots the limiter lends it; one per isolate by default. */
  leases?: SlotLeases;
  /** Whose limit it is, in the 429's sentence, e.g. `for this signing link`. */
  label?: string;
  /** Whether admitted responses carry X-RateLimit-* (default true; a 429 always does). */
  headers?: boolean;
  /**
   * Routes a signer meets (/s, /l): the 429 also carries the signers' catalog sentence, which their
   * router answers in the visitor's language (src/routes/signer-refusals.tsx).
   */
  forSigners?: boolean;
};

/** Module scope lives as long as the isolate: leases outlast the request that fetched them. */
const isolateLeases = new SlotLeases();

/** The X-RateLimit-* headers every authenticated response carries; Reset is Unix time in seconds. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(Math.ceil(decision.resetAt / 1000)),
  };
}

export function rateLimit(options: RateLimitOptions): MiddlewareHandler<AppEnv> {
  const windowMs = options.windowMs ?? RATE_WINDOW_MS;
  const leases = options.leases ?? isolateLeases;
  return async function rateLimitMiddleware(c, next) {
    if (limitsDisabled(c.env)) return next();
    const limit = typeof options.limit === 'function' ? options.limit(c) : options.limit;
    const key = options.key(c);
    const namespace = c.env.RATE_LIMITER;
    // The stub is made only when the call happens; most requests spend a leased slot instead.
    const decision = await leases.admit(key, limit, windowMs, {
      take: (request) => namespace.get(namespace.idFromName(key)).take(request),
    });
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) {
      // Whole seconds, rounded up, so a client that waits exactly this long is admitted (RFC 9110 §10.2.3).
      const wait = secondsUntil(decision.resetAt);
      const refused = new ApiError(
        429,
        `Rate limit of ${limit} requests per ${windowMs / 1000} seconds${options.label ? ` ${options.label}` : ''} exceeded; retry in ${wait} ${wait === 1 ? 'second' : 'seconds'}.`,
        {},
        { ...headers, 'Retry-After': String(wait) },
      );
      if (options.forSigners) refused.signer = [{ key: 'signer_error.rate_limited', values: { seconds: wait } }];
      throw refused;
    }
    await next();
    if (options.headers === false) return;
    // Set on the finished response in place; c.header() would rebuild the Response once per header.
    try {
      for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
    } catch {
      for (const [name, value] of Object.entries(headers)) c.header(name, value); // immutable headers
    }
  };
}
