// Console sessions for tests: a real session row (src/services/identity/sessions.ts) and the headers a
// console page would send with it.
import { env } from 'cloudflare:test';
import { createDb } from '../src/db/client';
import { sessionCookieName, startSession, type SessionStage } from '../src/services/identity/sessions';

export type TestSession = {
  sessionId: number;
  cookieValue: string;
  csrfToken: string;
  /** `Cookie` alone: enough for reads. */
  cookie: Record<string, string>;
  /** `Cookie`, same `Origin` and `X-CSRF-Token`: what a console page sends with a change. */
  console: Record<string, string>;
};

export async function sessionFor(
  user: { userId: number; accountId: number },
  options: { stage?: SessionStage; now?: number } = {},
): Promise<TestSession> {
  const { cookieValue, session } = await startSession(createDb(env.CONTROL_DB), {
    user: { id: user.userId, accountId: user.accountId },
    stage: options.stage ?? 'full',
    now: options.now,
  });
  const cookie = { Cookie: `${sessionCookieName(env)}=${cookieValue}` };
  return {
    sessionId: session.id,
    cookieValue,
    csrfToken: session.csrfToken,
    cookie,
    console: { ...cookie, Origin: 'https://api.test', 'X-CSRF-Token': session.csrfToken },
  };
}

/** Moves a session's last activity into the past, as if it had been idle that long. */
export async function idleSession(sessionId: number, idleMs: number): Promise<void> {
  await env.CONTROL_DB.prepare('UPDATE sessions SET last_seen_at = ? WHERE id = ?')
    .bind(new Date(Date.now() - idleMs).toISOString(), sessionId)
    .run();
}
