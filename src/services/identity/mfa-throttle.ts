// Wrong MFA codes per user (docs/mfa.md › Throttling): counted in the RateLimiter Durable Object under
// `mfa:<user id>`, as failed authentications are per address (src/middleware/auth/failed-authentications.ts).
import type { Bindings } from '../../env';
import { RefusedAddresses } from '../../middleware/auth/failed-authentications';
import { ApiError } from '../../lib/errors';
import { limitsDisabled } from '../../lib/limits';

/** 5 wrong codes per user in any 15 minutes; a sixth ends the pending sign-in. */
export const MFA_FAILURE_LIMIT = 5;
export const MFA_FAILURE_WINDOW_MS = 15 * 60 * 1000;

/** Users this isolate has seen go over the limit, with when they may try again. */
const isolateRefusals = new RefusedAddresses();

type ThrottleEnv = Pick<Bindings, 'RATE_LIMITER' | 'ENVIRONMENT' | 'LIMITS_DISABLED' | 'RATE_LIMIT_PER_MINUTE'>;

const keyOf = (userId: number) => `mfa:${userId}`;

/** When the user may try again, if this isolate already knows they are over the limit (no call). */
export function mfaRefusedUntil(env: ThrottleEnv, userId: number, now = Date.now()): number | null {
  if (limitsDisabled(env)) return null;
  return isolateRefusals.refusedUntil(keyOf(userId), now);
}

/**
 * Counts a wrong code. Returns when the user may try again once this one was one too many, else null.
 * A correct code costs nothing here. Another isolate learns of the limit with its own first wrong code,
 * so at most one more guess per isolate and window gets checked, and only after a fresh password sign-in
 * (the over-limit answer ends the pending session).
 */
export async function countWrongMfaCode(env: ThrottleEnv, userId: number): Promise<number | null> {
  if (limitsDisabled(env)) return null;
  const key = keyOf(userId);
  let decision;
  try {
    decision = await env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(key)).take({ limit: MFA_FAILURE_LIMIT, windowMs: MFA_FAILURE_WINDOW_MS });
  } catch (err) {
    // The code was wrong either way; a limiter that cannot answer must not turn it into a 500.
    console.error(`wrong MFA code for user ${userId} not counted:`, err);
    return null;
  }
  if (decision.allowed) return null;
  isolateRefusals.refuse(key, decision.resetAt);
  return decision.resetAt;
}

/** "15 minutes", "1 minute": how long until `until`, rounded up. */
export function minutesUntil(until: number, now = Date.now()): string {
  const minutes = Math.max(1, Math.ceil((until - now) / 60_000));
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

export function tooManyWrongCodes(until: number, now = Date.now()): string {
  return `Too many wrong codes (${MFA_FAILURE_LIMIT} in 15 minutes). Try again in ${minutesUntil(until, now)}.`;
}

export type ThrottledCheck<T> = { ok: T } | { error: string; status: 422 | 429 };

/**
 * Runs a code check of the MFA service (which throws a 422 for a wrong code) under the user's budget:
 * refused from memory once over it, and a wrong code counted. Returns the result or the sentence to show.
 */
export async function throttledCodeCheck<T>(env: ThrottleEnv, userId: number, check: () => Promise<T>): Promise<ThrottledCheck<T>> {
  const refusedUntil = mfaRefusedUntil(env, userId);
  if (refusedUntil !== null) return { error: tooManyWrongCodes(refusedUntil), status: 429 };
  try {
    return { ok: await check() };
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 422) throw err;
    const until = await countWrongMfaCode(env, userId);
    if (until !== null) return { error: tooManyWrongCodes(until), status: 429 };
    return { error: String(err.error), status: 422 };
  }
}
