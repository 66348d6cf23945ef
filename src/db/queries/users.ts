// User rows: team members of an account.
import { and, asc, count, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { inList } from '../bound-parameters';
import type { Db } from '../client';
import { accounts, users, type Account, type User } from '../schema';
import { cursorConditions } from '../cursor';
import type { CursorWindow } from '../../lib/pagination';
import { nowIso } from '../../lib/time';

export async function getUser(db: Db, accountId: number, id: number): Promise<User | undefined> {
  return db
    .select()
    .from(users)
    .where(and(eq(users.accountId, accountId), eq(users.id, id)))
    .get();
}

export async function listUsers(db: Db, accountId: number, window: CursorWindow): Promise<User[]> {
  const { where, orderBy } = cursorConditions(users.id, window);
  return db
    .select()
    .from(users)
    .where(and(eq(users.accountId, accountId), isNull(users.archivedAt), ...where))
    .orderBy(orderBy)
    .limit(window.take);
}

/** The account's users among `ids` (archived ones included), e.g. to name the owners of a list of tokens. */
export async function usersByIds(db: Db, accountId: number, ids: number[]): Promise<User[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(users)
    .where(and(eq(users.accountId, accountId), inList(users.id, ids)));
}

export async function findUserByEmail(db: Db, accountId: number, email: string): Promise<User | undefined> {
  return db
    .select()
    .from(users)
    .where(and(eq(users.accountId, accountId), sql`lower(${users.email}) = lower(${email})`))
    .get();
}

/** The account's first admin still on the team, if any. */
export async function findActiveAdmin(db: Db, accountId: number): Promise<User | undefined> {
  return db
    .select()
    .from(users)
    .where(and(eq(users.accountId, accountId), eq(users.role, 'admin'), isNull(users.archivedAt)))
    .orderBy(asc(users.id))
    .get();
}

/** `SELECT count(*)` of the account's team members, unexecuted: also a plan-limit guard's count. */
export function activeUsersCountQuery(db: Db, accountId: number) {
  return db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.accountId, accountId), isNull(users.archivedAt)));
}

export async function countActiveUsers(db: Db, accountId: number): Promise<number> {
  const [row] = await activeUsersCountQuery(db, accountId);
  return row.n;
}

export function insertUserStatement(db: Db, values: { accountId: number; email: string; name: string; role: string }) {
  return db.insert(users).values(values).returning();
}

export async function insertUser(db: Db, values: { accountId: number; email: string; name: string; role: string }): Promise<User> {
  const [row] = await insertUserStatement(db, values);
  return row;
}

type UserChanges = Partial<Pick<User, 'name' | 'role' | 'email' | 'archivedAt'>>;

/** The statement form of `updateUser`, for a caller's batch. */
export function updateUserStatement(db: Db, accountId: number, id: number, changes: UserChanges) {
  return db
    .update(users)
    .set({ ...changes, updatedAt: nowIso() })
    .where(and(eq(users.accountId, accountId), eq(users.id, id)))
    .returning();
}

export async function updateUser(db: Db, accountId: number, id: number, changes: UserChanges): Promise<User | undefined> {
  const [row] = await updateUserStatement(db, accountId, id, changes);
  return row;
}

// ---- sign-in and passwords (src/services/identity/) ----

/**
 * Active users with this email (any case) in accounts that are not suspended, newest first, at most
 * `limit`; with `withPassword` only those who have a password.
 */
export async function activeUsersWithEmailInActiveAccounts(
  db: Db,
  email: string,
  options: { withPassword?: boolean; limit: number },
): Promise<{ user: User; account: Account }[]> {
  return db
    .select({ user: users, account: accounts })
    .from(users)
    .innerJoin(accounts, eq(accounts.id, users.accountId))
    .where(
      and(
        sql`lower(${users.email}) = lower(${email})`,
        isNull(users.archivedAt),
        isNull(accounts.suspendedAt),
        options.withPassword ? isNotNull(users.passwordHash) : undefined,
      ),
    )
    .orderBy(desc(users.id))
    .limit(options.limit)
    .all();
}

/** Sets a user's password hash, unexecuted: the caller's batch also ends sessions and uses up links. */
export function setPasswordHashStatement(db: Db, userId: number, passwordHash: string, at: string) {
  return db.update(users).set({ passwordHash, passwordChangedAt: at, updatedAt: at }).where(eq(users.id, userId));
}

/** Replaces a user's hash of the same password, guarded by the old hash so a password changed meanwhile is never overwritten. */
export async function replacePasswordHash(db: Db, userId: number, passwordHash: string, previousHash: string): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash })
    .where(and(eq(users.id, userId), eq(users.passwordHash, previousHash)))
    .run();
}

/** Records an address the user has yet to confirm, returning the user (unexecuted, for a batch). */
export function setPendingEmailStatement(db: Db, userId: number, pendingEmail: string, at: string) {
  return db.update(users).set({ pendingEmail, updatedAt: at }).where(eq(users.id, userId)).returning();
}

/** Makes the pending address the user's email, when there is one (unexecuted, for a batch). */
export function confirmPendingEmailStatement(db: Db, userId: number, at: string) {
  return db
    .update(users)
    .set({ email: sql`${users.pendingEmail}`, pendingEmail: null, updatedAt: at })
    .where(and(eq(users.id, userId), isNotNull(users.pendingEmail)));
}
