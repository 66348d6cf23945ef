// One-time password-link rows (src/services/identity/password-tokens.ts decides their purposes and lives).
import { and, eq, gt, isNotNull, isNull, lt, ne, or } from 'drizzle-orm';
import { inList } from '../bound-parameters';
import type { Db } from '../client';
import { passwordTokens, users, type PasswordToken, type User } from '../schema/index';

export type NewPasswordToken = Pick<PasswordToken, 'tokenHash' | 'accountId' | 'userId' | 'purpose' | 'createdAt' | 'expiresAt'>;

/** The unexecuted insert, for a caller's own batch. */
export function insertPasswordTokenStatement(db: Db, values: NewPasswordToken) {
  return db.insert(passwordTokens).values(values);
}

/** The unused token stored under a link's hash that has not expired at `at`, with its user. */
export async function findUnusedPasswordToken(
  db: Db,
  tokenHash: string,
  at: string,
): Promise<{ token: PasswordToken; user: User } | undefined> {
  return db
    .select({ token: passwordTokens, user: users })
    .from(passwordTokens)
    .innerJoin(users, eq(users.id, passwordTokens.userId))
    .where(and(eq(passwordTokens.tokenHash, tokenHash), isNull(passwordTokens.usedAt), gt(passwordTokens.expiresAt, at)))
    .get();
}

/** Marks one token used, only if it still is unused and unexpired: the statement a race is decided by. */
export function consumePasswordTokenStatement(db: Db, tokenId: number, at: string) {
  return db
    .update(passwordTokens)
    .set({ usedAt: at })
    .where(and(eq(passwordTokens.id, tokenId), isNull(passwordTokens.usedAt), gt(passwordTokens.expiresAt, at)));
}

/**
 * Uses up the user's outstanding links when their password changes. A pending email confirmation is
 * about the address, not the password: it stays usable.
 */
export function usePasswordLinksOfUserStatement(db: Db, userId: number, at: string) {
  return db
    .update(passwordTokens)
    .set({ usedAt: at })
    .where(and(eq(passwordTokens.userId, userId), isNull(passwordTokens.usedAt), ne(passwordTokens.purpose, 'email_change')));
}

/** Voids the user's earlier, unused email-confirmation links (a new address supersedes them). */
export function useEmailChangeLinksOfUserStatement(db: Db, userId: number, at: string) {
  return db
    .update(passwordTokens)
    .set({ usedAt: at })
    .where(and(eq(passwordTokens.userId, userId), eq(passwordTokens.purpose, 'email_change'), isNull(passwordTokens.usedAt)));
}

/** Deletes tokens used or expired before `at`, at most `limit` a call. */
export async function deleteSpentPasswordTokenRows(db: Db, at: string, limit: number): Promise<void> {
  const spent = await db
    .select({ id: passwordTokens.id })
    .from(passwordTokens)
    .where(or(isNotNull(passwordTokens.usedAt), lt(passwordTokens.expiresAt, at)))
    .limit(limit);
  if (spent.length === 0) return;
  await db
    .delete(passwordTokens)
    .where(
      inList(
        passwordTokens.id,
        spent.map((row) => row.id),
      ),
    )
    .run();
}
