// Wrong MFA codes per user (docs/mfa.md › Throttling): an attempt is taken from the user's budget in D1
// before the code is checked, so a burst of concurrent guesses gets at most MFA_FAILURE_LIMIT of them
// checked (counting after the check let every guess of a burst through to the check).
import type { Db } from '../../db/client';
import { giveBackMfaAttempt, takeMfaAttempt } from '../../db/queries/mfa';
import type { Bindings } from '../../env';
import { ApiError } from '../../lib/errors';
import { limitsDisabled } from '../../lib/limits';

/** 5 wrong codes per user in a 15-minute window; a sixth attempt ends the pending sign-in. */
export const MFA_FAILURE_LIMIT = 5;
export const MFA_FAILURE_WINDOW_MS = 15 * 60 * 1000;

type ThrottleEnv = Pick<Bindings, 'ENVIRONMENT' | 'LIMITS_DISABLED' | 'RATE_LIMIT_PER_MINUTE'>;

/** "15 minutes", "1 minute": how long until `until`, rounded up. */
export function minutesUntil(until: number, now = Date.now()): string {
  const minutes = Math.max(1, Math.ceil((until - now) / 60_000));
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

export function tooManyWrongCodes(until: number, now = Date.now()): string {
  return `Too many wrong codes (${MFA_FAILURE_LIMIT} in 15 minutes). Try again in ${minutesUntil(until, now)}.`;
}

export type CodeAttempt<T> = { ok: T } | { wrong: true } | { refusedUntil: number };

/**
 * Checks one code under the user's budget: the attempt is counted first (refused without any check once
 * the budget is spent), then `check` runs, and a right code (`check` returned something other than
 * null) gives its attempt back.
 */
export async function attemptCode<T>(db: Db, env: ThrottleEnv, userId: number, check: () => Promise<T | null>): Promise<CodeAttempt<T>> {
  const counted = !limitsDisabled(env);
  if (counted) {
    const attempt = await takeMfaAttempt(db, userId, MFA_FAILURE_LIMIT, MFA_FAILURE_WINDOW_MS);
    if (!attempt.taken) return { refusedUntil: attempt.retryAt };
  }
  const result = await check();
  if (result === null) return { wrong: true };
  if (counted) await giveBackMfaAttempt(db, userId);
  return { ok: result };
}

export type ThrottledCheck<T> = { ok: T } | { error: string; status: 422 | 429 };

/**
 * Runs a code check of the MFA service (which throws a 422 for a wrong code) under the user's budget.
 * Returns the result or the sentence to show.
 */
export async function throttledCodeCheck<T>(db: Db, env: ThrottleEnv, userId: number, check: () => Promise<T>): Promise<ThrottledCheck<T>> {
  let wrong: string | null = null;
  const attempt = await attemptCode(db, env, userId, async () => {
    try {
      return { value: await check() };
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 422) throw err;
      wrong = String(err.error);
      return null;
    }
  });
  if ('refusedUntil' in attempt) return { error: tooManyWrongCodes(attempt.refusedUntil), status: 429 };
  if ('wrong' in attempt) return { error: wrong ?? 'That code is not right.', status: 422 };
  return { ok: attempt.ok.value };
}
