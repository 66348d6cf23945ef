// Failed authentications per client address: counted in the RateLimiter Durable Object, and refused
// before any lookup once an address has failed too often (docs/limits.md › Failed authentication).
import type { Context } from 'hono';
import type { AppEnv } from '../../app-env';
import { ApiError } from '../../lib/errors';
import { clientAddressBlock } from '../../lib/ip';
import { AUTH_FAILURE_LIMIT, limitsDisabled, RATE_WINDOW_MS } from '../../lib/limits';
import { clientIp } from '../../lib/request';
import { secondsUntil } from '../../lib/time';

export type FailedAuthenticationOptions = {
  /** Failures allowed per address and window before the address is refused. */
  limit?: number;
  windowMs?: number;
  /** Where this isolate remembers refused addresses; one per isolate by default. */
  refused?: RefusedAddresses;
};

/** Addresses this isolate has seen go over their limit, with when each may try again. */
export class RefusedAddresses {
  private readonly until = new Map<string, number>();

  /** Past `maxKeys` the oldest entry is forgotten: its next failure asks the limiter again. */
  constructor(private readonly maxKeys = 10_000) {}

  refusedUntil(key: string, now: number): number | null {
    const until = this.until.get(key);
    if (until === undefined) return null;
    if (until > now) return until;
    this.until.delete(key);
    return null;
  }

  refuse(key: string, until: number): void {
    this.until.delete(key);
    if (this.until.size >= this.maxKeys) this.until.delete(this.until.keys().next().value!);
    this.until.set(key, until);
  }
}

/** Module scope lives as long as the isolate, like the rate limiter's leases. */
const isolateRefusals = new RefusedAddresses();

export type FailedAuthentications = {
  /** Before any lookup, with no call: 429 when this isolate knows the address is over its limit. */
  refuseIfOverLimit(c: Context<AppEnv>): void;
  /** After a failed lookup: counts it against the address and returns what to throw, `failure` or 429. */
  count<E extends Error>(c: Context<AppEnv>, failure: E): Promise<E | ApiError>;
};

/**
 * A credential that is found costs nothing here: no call and no write, only a map lookup. A failure
 * costs one call to the address's `RateLimiter` (`authfail:<address>`), which counts it exactly across
 * isolates; the failure that is one too many makes this isolate refuse the address without looking
 * anything up until the limiter's window frees a slot. Another isolate learns it with its own first
 * failure from that address, so at most one lookup per isolate and window gets past the limit.
 */
export function failedAuthentications(options: FailedAuthenticationOptions = {}): FailedAuthentications {
  const limit = options.limit ?? AUTH_FAILURE_LIMIT;
  const windowMs = options.windowMs ?? RATE_WINDOW_MS;
  const refused = options.refused ?? isolateRefusals;

  const tooMany = (until: number) => {
    // Whole seconds, rounded up, as the per-token limit's Retry-After (RFC 9110 §10.2.3).
    const wait = secondsUntil(until);
    return new ApiError(
      429,
      `Too many failed authentications from this address (${limit} per ${windowMs / 1000} seconds); retry in ${wait} ${wait === 1 ? 'second' : 'seconds'}.`,
      {},
      { 'Retry-After': String(wait) },
    );
  };
  const keyOf = (c: Context<AppEnv>) => `authfail:${clientAddressBlock(clientIp(c.req.raw))}`;

  return {
    refuseIfOverLimit(c) {
      if (limitsDisabled(c.env)) return;
      const until = refused.refusedUntil(keyOf(c), Date.now());
      if (until !== null) throw tooMany(until);
    },

    async count(c, failure) {
      if (limitsDisabled(c.env)) return failure;
      const key = keyOf(c);
      const namespace = c.env.RATE_LIMITER;
      let decision;
      try {
        decision = await namespace.get(namespace.idFromName(key)).take({ limit, windowMs });
      } catch (err) {
        // The request is refused either way; a limiter that cannot answer must not turn a 401 into a 500.
        console.error(`[${c.var.requestId}] failed-authentication count for ${key} not recorded:`, err);
        return failure;
      }
      if (decision.allowed) return failure;
      refused.refuse(key, decision.resetAt);
      return tooMany(decision.resetAt);
    },
  };
}
