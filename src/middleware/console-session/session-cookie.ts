// The console session's cookie on the response (spec › Authentication): HTTP, so it lives with the
// middleware that reads it; the sessions themselves are src/services/identity/sessions.ts.
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../../app-env';
import type { Session, User } from '../../db/schema/index';
import { isDevelopment } from '../../lib/environment';
import { clientIp } from '../../lib/request';
import { sessionCookieName, startSession, type SessionStage } from '../../services/identity/sessions';

export function readSessionCookie(c: Context<AppEnv>): string | undefined {
  return getCookie(c, sessionCookieName(c.env)) || undefined;
}

/** HttpOnly, SameSite=Lax, Secure outside development (spec › Authentication), no Max-Age: idle ends it server-side. */
export function setSessionCookie(c: Context<AppEnv>, cookieValue: string): void {
  setCookie(c, sessionCookieName(c.env), cookieValue, {
    httpOnly: true,
    secure: !isDevelopment(c.env),
    sameSite: 'Lax',
    path: '/',
  });
}

export function clearSessionCookie(c: Context<AppEnv>): void {
  deleteCookie(c, sessionCookieName(c.env), { path: '/', secure: !isDevelopment(c.env) });
}

/** Starts a session for a user who just proved who they are, and sets its cookie on the response. */
export async function signInResponseSession(
  c: Context<AppEnv>,
  user: Pick<User, 'id' | 'accountId'>,
  stage: SessionStage,
): Promise<Session> {
  const { cookieValue, session } = await startSession(c.var.control, {
    user,
    stage,
    ip: clientIp(c.req.raw),
    userAgent: c.req.header('User-Agent'),
  });
  setSessionCookie(c, cookieValue);
  return session;
}
