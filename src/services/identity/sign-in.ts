// Password sign-in to the console (docs/identity.md › Sign-in): attempts throttled per client address and
// per email in the RateLimiter Durable Object, then the password checked against every active user with
// that email (one email may be a user of several accounts).
import type { Db } from '../../db/client';
import { activeUsersWithEmailInActiveAccounts } from '../../db/queries/users';
import type { Account, User } from '../../db/schema/index';
import type { Bindings } from '../../env';
import { sha256Hex } from '../../lib/crypto';
import { clientAddressBlock } from '../../lib/ip';
import { limitsDisabled } from '../../lib/limits';
import { burnPasswordCheck, verifyPassword } from './passwords';
import { rehashUserPassword } from './password-tokens';
import { secondsUntil } from '../../lib/time';

/** Attempts per email and per client address in a rolling 15 minutes, failed or not (decisions.md › issue 16). */
export const SIGN_IN_ATTEMPT_LIMIT = 10;
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
/**
 * Failed sign-ins per account in a rolling 15 minutes, whatever the email or address: spraying one
 * password over the users of one account from many addresses stops here. Higher than the per-email limit
 * so one person's typos never lock out their colleagues.
 */
export const ACCOUNT_FAILURE_LIMIT = 50;

/**
 * Users checked per email, newest first: each costs one scrypt. Every user whose password could match is
 * considered (an email is only ever a user's once its owner confirmed it: an invitation or an email change
 * is a link sent to the address), so other tenants cannot push a person's own user out of this list; the
 * bound only keeps one sign-in's CPU finite.
 */
export const MAX_CANDIDATES = 50;

export const WRONG_CREDENTIALS = 'The email or password is wrong.';

export type SignInCandidate = { user: User; account: Account };

/**
 * Counts one attempt for the client address and for the email. Every attempt counts, so the limit is
 * exact across isolates and a refused attempt costs no scrypt. Returns the seconds to wait when either
 * is over its limit, else null.
 */
export async function takeSignInAttempt(
  env: Pick<Bindings, 'RATE_LIMITER' | 'ENVIRONMENT' | 'LIMITS_DISABLED' | 'RATE_LIMIT_PER_MINUTE'>,
  ip: string | null,
  email: string,
): Promise<number | null> {
  if (limitsDisabled(env)) return null;
  const keys = [`signin:ip:${clientAddressBlock(ip)}`, `signin:email:${await sha256Hex(email.trim().toLowerCase())}`];
  const decisions = await Promise.all(
    keys.map((key) =>
      env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(key)).take({ limit: SIGN_IN_ATTEMPT_LIMIT, windowMs: SIGN_IN_WINDOW_MS }),
    ),
  );
  const refused = decisions.filter((d) => !d.allowed);
  if (refused.length === 0) return null;
  return secondsUntil(Math.max(...refused.map((d) => d.resetAt)));
}

/**
 * Counts a failed sign-in against each account the email belongs to (at most 5). Returns the seconds to
 * wait when any of them has had too many failures, else null.
 */
export async function countAccountFailures(
  env: Pick<Bindings, 'RATE_LIMITER' | 'ENVIRONMENT' | 'LIMITS_DISABLED' | 'RATE_LIMIT_PER_MINUTE'>,
  accountIds: number[],
): Promise<number | null> {
  if (limitsDisabled(env) || accountIds.length === 0) return null;
  const decisions = await Promise.all(
    [...new Set(accountIds)].map((id) =>
      env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`signin:account:${id}`)).take({
        limit: ACCOUNT_FAILURE_LIMIT,
        windowMs: SIGN_IN_WINDOW_MS,
      }),
    ),
  );
  const refused = decisions.filter((d) => !d.allowed);
  if (refused.length === 0) return null;
  return secondsUntil(Math.max(...refused.map((d) => d.resetAt)));
}

/**
 * The accounts among `accountIds` that have used up their failed sign-ins (without counting one), with
 * the seconds until the last of them takes attempts again (null when none refuses).
 */
export async function accountsRefusingSignIn(
  env: Pick<Bindings, 'RATE_LIMITER' | 'ENVIRONMENT' | 'LIMITS_DISABLED' | 'RATE_LIMIT_PER_MINUTE'>,
  accountIds: number[],
): Promise<{ refusing: Set<number>; wait: number | null }> {
  if (limitsDisabled(env) || accountIds.length === 0) return { refusing: new Set(), wait: null };
  const ids = [...new Set(accountIds)];
  const states = await Promise.all(
    ids.map((id) =>
      env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`signin:account:${id}`)).peek({
        limit: ACCOUNT_FAILURE_LIMIT,
        windowMs: SIGN_IN_WINDOW_MS,
      }),
    ),
  );
  const refusing = new Set(ids.filter((_, i) => !states[i].allowed));
  const full = states.filter((state) => !state.allowed);
  const wait = full.length === 0 ? null : secondsUntil(Math.max(...full.map((d) => d.resetAt)));
  return { refusing, wait };
}

/** Active users with this email (any case) in accounts that are not suspended, newest first, at most MAX_CANDIDATES. */
export async function activeUsersWithEmail(
  control: Db,
  email: string,
  options: { withPassword?: boolean } = {},
): Promise<SignInCandidate[]> {
  return activeUsersWithEmailInActiveAccounts(control, email.trim(), { withPassword: options.withPassword, limit: MAX_CANDIDATES });
}

/**
 * The users of active accounts whose email and password both match. Archived users, suspended accounts
 * and users without a password never match. An unknown email costs one scrypt like a known one.
 * Upgrades a matching hash whose parameters are below today's.
 */
export async function usersMatchingPassword(
  control: Db,
  email: string,
  password: string,
  candidates?: SignInCandidate[],
): Promise<SignInCandidate[]> {
  candidates ??= await activeUsersWithEmail(control, email, { withPassword: true });
  if (candidates.length === 0) {
    await burnPasswordCheck(password);
    return [];
  }
  const matched: SignInCandidate[] = [];
  for (const candidate of candidates) {
    const check = await verifyPassword(password, candidate.user.passwordHash);
    if (!check.ok) continue;
    if (check.needsRehash) await rehashUserPassword(control, candidate.user.id, password, candidate.user.passwordHash!);
    matched.push(candidate);
  }
  return matched;
}
