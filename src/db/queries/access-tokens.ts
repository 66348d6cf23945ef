// Access token rows. Tokens are looked up by the SHA-256 of their value; the value is never stored.
import { and, count, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { accessTokens, accounts, users, type AccessToken, type Account, type User } from '../schema';
import { cursorConditions } from '../cursor';
import type { CursorWindow } from '../../lib/pagination';

function principalQuery(db: Db) {
  // One round trip to the control database: authentication is on every request's path, and the account
  // row it yields says which shard the request goes to.
  return db
    .select({ token: accessTokens, user: users, account: accounts })
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.userId))
    .innerJoin(accounts, eq(accounts.id, accessTokens.accountId))
    .where(eq(accessTokens.tokenHash, sql.placeholder('tokenHash')))
    .prepare();
}

/** Built once per handle: the SQL and its result mapping are the same for every request. */
const principalQueries = new WeakMap<Db, ReturnType<typeof principalQuery>>();

/** The API token behind a hash, with its user and account (one control round trip). */
export type TokenPrincipal = { token: AccessToken; user: User; account: Account; hasWebhooks: boolean };

export async function findPrincipalByTokenHash(db: Db, tokenHash: string): Promise<TokenPrincipal | undefined> {
  let query = principalQueries.get(db);
  if (!query) {
    query = principalQuery(db);
    principalQueries.set(db, query);
  }
  const found = await query.get({ tokenHash });
  return found && { ...found, hasWebhooks: found.account.hasWebhooks };
}

/**
 * Records use without a write per request: the row is only updated when its stored value is older
 * than `staleBefore`, so a busy token costs at most one write per interval.
 */
export async function touchLastUsed(db: Db, id: number, at: string, staleBefore: string): Promise<void> {
  await db
    .update(accessTokens)
    .set({ lastUsedAt: at })
    .where(and(eq(accessTokens.id, id), or(isNull(accessTokens.lastUsedAt), lt(accessTokens.lastUsedAt, staleBefore))));
}

export type NewAccessToken = Pick<
  AccessToken,
  'accountId' | 'userId' | 'name' | 'tokenHash' | 'tokenPrefix' | 'scopes' | 'allowedIps' | 'expiresAt'
>;

export function insertAccessTokenStatement(db: Db, values: NewAccessToken) {
  return db.insert(accessTokens).values(values).returning();
}

export async function insertAccessToken(db: Db, values: NewAccessToken): Promise<AccessToken> {
  const [row] = await insertAccessTokenStatement(db, values);
  return row;
}

/** `userId` narrows to one user's tokens (non-admins see only their own). */
export async function listAccessTokens(db: Db, accountId: number, userId: number | null, window: CursorWindow): Promise<AccessToken[]> {
  const { where, orderBy } = cursorConditions(accessTokens.id, window);
  return db
    .select()
    .from(accessTokens)
    .where(and(eq(accessTokens.accountId, accountId), userId === null ? undefined : eq(accessTokens.userId, userId), ...where))
    .orderBy(orderBy)
    .limit(window.take);
}

export async function getAccessToken(db: Db, accountId: number, id: number, userId: number | null): Promise<AccessToken | undefined> {
  return db
    .select()
    .from(accessTokens)
    .where(
      and(eq(accessTokens.accountId, accountId), eq(accessTokens.id, id), userId === null ? undefined : eq(accessTokens.userId, userId)),
    )
    .get();
}

export async function revokeAccessToken(db: Db, accountId: number, id: number, at: string): Promise<AccessToken | undefined> {
  // Revoking twice keeps the first revocation time.
  await db
    .update(accessTokens)
    .set({ revokedAt: at })
    .where(and(eq(accessTokens.accountId, accountId), eq(accessTokens.id, id), isNull(accessTokens.revokedAt)));
  return db
    .select()
    .from(accessTokens)
    .where(and(eq(accessTokens.accountId, accountId), eq(accessTokens.id, id)))
    .get();
}

/** Tokens that can still authenticate: not revoked and not past their expiry. */
export async function countUsableAccessTokens(db: Db, accountId: number, at: string): Promise<number> {
  const [row] = await usableAccessTokensCountQuery(db, accountId, at);
  return row.n;
}

/** `SELECT count(*)` of tokens usable at `at`, unexecuted: also a plan-limit guard's count. */
export function usableAccessTokensCountQuery(db: Db, accountId: number, at: string) {
  return db
    .select({ n: count() })
    .from(accessTokens)
    .where(
      and(
        eq(accessTokens.accountId, accountId),
        isNull(accessTokens.revokedAt),
        or(isNull(accessTokens.expiresAt), gt(accessTokens.expiresAt, at)),
      ),
    );
}
