// Console sessions (spec › Authentication, decisions.md › Identity): an opaque random cookie whose
// SHA-256 is the row's key in the control database. A session ends after 30 minutes without a request,
// 12 hours after sign-in however busy, at logout, and for every session of a user when their password
// changes, MFA is disabled or their role is raised (`endSessionsOfUserStatement`, db/queries/sessions.ts).
import type { Db } from '../../db/client';
import { deleteStaleSessionRows, endSession, findSessionByTokenHash, insertSession, touchSession } from '../../db/queries/sessions';
import type { Account, Session, User } from '../../db/schema/index';
import { sha256Hex } from '../../lib/crypto';
import { randomBase62 } from '../../lib/random';

/** Spec › Limits: a console session lasts 30 minutes of inactivity. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/** However busy, a session ends this long after sign-in (decisions: docs/decisions.md › Identity). */
export const SESSION_MAX_MS = 12 * 60 * 60 * 1000;
/** `last_seen_at` is refreshed at most this often: one write a minute per busy session, not per request. */
export const SESSION_TOUCH_MS = 60 * 1000;

export type SessionStage = 'mfa' | 'full';

/** A live session with its user and account, as a request sees it. */
export type SignedIn = { session: Session; user: User; account: Account };

/** `_` + the service name in snake case + `_session` (decisions.md › Identity): `_signing_service_session`. */
export function sessionCookieName(env: { SERVICE_NAME?: string }): string {
  const snake = (env.SERVICE_NAME ?? 'Signing Service')
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return `_${snake || 'signing_service'}_session`;
}

export async function startSession(
  db: Db,
  input: { user: Pick<User, 'id' | 'accountId'>; stage: SessionStage; ip?: string | null; userAgent?: string | null; now?: number },
): Promise<{ cookieValue: string; session: Session }> {
  const now = input.now ?? Date.now();
  const cookieValue = randomBase62(43);
  const session = await insertSession(db, {
    tokenHash: await sha256Hex(cookieValue),
    accountId: input.user.accountId,
    userId: input.user.id,
    stage: input.stage,
    csrfToken: randomBase62(32),
    ip: input.ip ?? null,
    userAgent: input.userAgent?.slice(0, 512) ?? null,
    createdAt: new Date(now).toISOString(),
    lastSeenAt: new Date(now).toISOString(),
    expiresAt: new Date(now + SESSION_MAX_MS).toISOString(),
  });
  return { cookieValue, session };
}

/** Why a presented cookie is not a live session, for the sign-in page's sentence. */
export type SessionMiss = 'unknown' | 'idle' | 'expired' | 'removed' | 'suspended';

/**
 * The session behind a cookie value, with its user and account, or why there is none. A session past its
 * idle or absolute end is deleted on sight. Refreshes `last_seen_at` when it is older than a minute.
 */
export async function findSession(
  db: Db,
  cookieValue: string,
  options: { now?: number; waitUntil?: (work: Promise<unknown>) => void } = {},
): Promise<SignedIn | { miss: SessionMiss }> {
  const now = options.now ?? Date.now();
  if (!/^[0-9A-Za-z]{43}$/.test(cookieValue)) return { miss: 'unknown' };
  const row = await findSessionByTokenHash(db, await sha256Hex(cookieValue));
  if (!row) return { miss: 'unknown' };
  const idle = now - Date.parse(row.session.lastSeenAt) >= SESSION_IDLE_MS;
  const expired = now >= Date.parse(row.session.expiresAt);
  if (idle || expired || row.user.archivedAt) {
    await endSession(db, row.session.id);
    return { miss: row.user.archivedAt ? 'removed' : idle ? 'idle' : 'expired' };
  }
  if (row.account.suspendedAt) return { miss: 'suspended' };
  if (now - Date.parse(row.session.lastSeenAt) >= SESSION_TOUCH_MS) {
    const seen = new Date(now).toISOString();
    // Guarded so two concurrent requests write once, and an idle session is never revived by a late write.
    const touch = touchSession(db, row.session.id, seen, new Date(now - SESSION_TOUCH_MS).toISOString());
    if (options.waitUntil) options.waitUntil(touch);
    else await touch;
    row.session.lastSeenAt = seen;
  }
  return row;
}

/** Deletes sessions past their idle or absolute end, at most `limit` a run (a cron step keeps the table small). */
export async function deleteStaleSessions(db: Db, now = Date.now(), limit = 500): Promise<void> {
  await deleteStaleSessionRows(db, new Date(now - SESSION_IDLE_MS).toISOString(), new Date(now).toISOString(), limit);
}

/** Whether the account requires MFA and this user has not enrolled: they may only enrol (decisions.md › Identity). */
export function mustEnrolMfa(signedIn: { user: Pick<User, 'mfaEnabledAt'>; account: Pick<Account, 'mfaEnforced'> }): boolean {
  return signedIn.account.mfaEnforced && !signedIn.user.mfaEnabledAt;
}
