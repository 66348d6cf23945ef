// Console pages (server-rendered HTML): the signed-in user from the session cookie, or a redirect to
// the sign-in page that comes back here afterwards. Sets `c.var.signedIn` and the account's shard.
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../app-env';
import { useAccountScope } from '../databases';
import { timingSafeEqualString } from '../../lib/crypto';
import { ApiError } from '../../lib/errors';
import { findSession, mustEnrolMfa, type SignedIn } from '../../services/identity/sessions';
import { readSessionCookie } from './session-cookie';
import { CONSOLE_CSP } from '../../lib/console-csp';

export type ConsoleSessionOptions = {
  /** The MFA enrolment pages: open to a user whose account requires MFA before they have it. */
  allowEnrolment?: boolean;
};

/**
 * Control characters and backslashes anywhere: browsers drop tab and newline from a URL and read a
 * backslash as a slash (WHATWG URL parsing), so `/<tab>/evil.example` or `/<backslash>evil.example`
 * would leave the origin as `//evil.example`.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const UNSAFE_IN_NEXT = /[\u0000-\u001f\u007f\\]/;

/** Where a page sends someone back to after signing in: a path on this origin only, never a URL. */
export function safeNextPath(value: string | undefined | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || UNSAFE_IN_NEXT.test(value)) return '/settings/account';
  return value;
}

function here(c: Context<AppEnv>): string {
  const url = new URL(c.req.url);
  return url.pathname + url.search;
}

export function consoleSession(options: ConsoleSessionOptions = {}): MiddlewareHandler<AppEnv> {
  return async function consoleSessionMiddleware(c, next) {
    c.header('Content-Security-Policy', CONSOLE_CSP);
    c.header('Cache-Control', 'no-store');
    const cookie = readSessionCookie(c);
    const found = cookie
      ? await findSession(c.var.control, cookie, { waitUntil: (work) => c.executionCtx.waitUntil(work) })
      : { miss: 'unknown' as const };
    const back = encodeURIComponent(here(c));
    if ('miss' in found) {
      const reason = found.miss === 'idle' ? '&reason=idle' : found.miss === 'suspended' ? '&reason=suspended' : '';
      return c.redirect(`/login?next=${back}${reason}`, 303);
    }
    if (found.session.stage !== 'full') return c.redirect(`/login/mfa?next=${back}`, 303);
    if (mustEnrolMfa(found) && !options.allowEnrolment) return c.redirect(`/settings/mfa?next=${back}`, 303);
    c.set('signedIn', found);
    useAccountScope(c, found.account);
    await next();
  };
}

/**
 * For a console page's own form POST (not a JSON API call): the hidden `csrf_token` field or the
 * `X-CSRF-Token` header must match the session's, and the request must come from this origin.
 */
export function checkConsoleForm(c: Context<AppEnv>, signedIn: SignedIn, form?: Record<string, unknown>): void {
  const origin = c.req.header('Origin');
  if (origin && origin !== new URL(c.req.url).origin) throw new ApiError(403, 'This form must be sent from the console itself.');
  const presented = c.req.header('X-CSRF-Token') ?? (typeof form?.csrf_token === 'string' ? form.csrf_token : '');
  if (!timingSafeEqualString(presented, signedIn.session.csrfToken)) {
    throw new ApiError(403, 'This form has expired or did not come from the console; reload the page and try again.');
  }
}
