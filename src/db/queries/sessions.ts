// Console session rows (src/services/identity/sessions.ts decides when a session lives and ends).
import { and, eq, lt, or, sql } from 'drizzle-orm';
import { inList } from '../bound-parameters';
import type { Db } from '../client';
import { accounts, sessions, users, type Account, type Session, type User } from '../schema/index';

export type NewSession = Pick<
  Session,
  'tokenHash' | 'accountId' | 'userId' | 'stage' | 'csrfToken' | 'ip' | 'userAgent' | 'createdAt' | 'lastSeenAt' | 'expiresAt'
>;

export async function insertSession(db: Db, values: NewSession): Promise<Session> {
  return db.insert(sessions).values(values).returning().get();
}

/** The session stored under a cookie's hash, with its user and account. */
export async function findSessionByTokenHash(
  db: Db,
  tokenHash: string,
): Promise<{ session: Session; user: User; account: Account } | undefined> {
  return db
    .select({ session: sessions, user: users, account: accounts })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(eq(sessions.tokenHash, tokenHash))
    .get();
}

/**
 * Sets `last_seen_at` to `seen` unless another request already did since `staleBefore`: guarded so two
 * concurrent requests write once, and an idle session is never revived by a late write.
 */
export async function touchSession(db: Db, sessionId: number, seen: string, staleBefore: string): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt: seen })
    .where(and(eq(sessions.id, sessionId), lt(sessions.lastSeenAt, staleBefore)))
    .run();
}

/** Moves a session past the MFA step (the same row and cookie: nothing to fixate on the way). */
export async function promoteSession(db: Db, sessionId: number): Promise<void> {
  await db.update(sessions).set({ stage: 'full' }).where(eq(sessions.id, sessionId)).run();
}

export async function endSession(db: Db, sessionId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId)).run();
}

/**
 * Ends every session of a user (password changed, MFA disabled, role raised, user removed), as a
 * statement for the caller's batch: the change and the sign-out commit together.
 */
export function endSessionsOfUserStatement(db: Db, userId: number) {
  return db.delete(sessions).where(eq(sessions.userId, userId));
}

/** Deletes sessions last seen before `idleBefore` or ending before `expiredBefore`, at most `limit` a call. */
export async function deleteStaleSessionRows(db: Db, idleBefore: string, expiredBefore: string, limit: number): Promise<void> {
  const stale = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(or(lt(sessions.lastSeenAt, idleBefore), lt(sessions.expiresAt, expiredBefore)))
    .limit(limit);
  if (stale.length === 0) return;
  await db
    .delete(sessions)
    .where(
      inList(
        sessions.id,
        stale.map((row) => row.id),
      ),
    )
    .run();
}

/** Ends every session of a user but `keepSessionId` (the one changing its own password), for a batch. */
export function endOtherSessionsOfUserStatement(db: Db, userId: number, keepSessionId: number) {
  return db.delete(sessions).where(and(eq(sessions.userId, userId), sql`${sessions.id} <> ${keepSessionId}`));
}
