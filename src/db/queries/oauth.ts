// OAuth 2.1 rows in the control database (src/db/schema/oauth.ts). Secrets are looked up by their SHA-256.
// "Once" is a guarded UPDATE … WHERE used_at IS NULL whose change count says who won a race.
import { and, desc, eq, exists, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../client';
import {
  accounts,
  oauthClients,
  oauthCodes,
  oauthGrants,
  oauthTokens,
  users,
  type Account,
  type OAuthClient,
  type OAuthCode,
  type OAuthGrant,
  type OAuthToken,
  type User,
} from '../schema';

export type NewOAuthClient = Pick<
  OAuthClient,
  'clientId' | 'secretHash' | 'name' | 'redirectUris' | 'tokenEndpointAuthMethod' | 'accountId' | 'createdByUserId'
>;

export async function insertOAuthClient(db: Db, values: NewOAuthClient): Promise<OAuthClient> {
  return db.insert(oauthClients).values(values).returning().get();
}

/** A client that has not been deleted, by its public id. */
export async function findOAuthClient(db: Db, clientId: string): Promise<OAuthClient | undefined> {
  return db
    .select()
    .from(oauthClients)
    .where(and(eq(oauthClients.clientId, clientId), isNull(oauthClients.deletedAt)))
    .get();
}

export async function listAccountOAuthClients(db: Db, accountId: number): Promise<OAuthClient[]> {
  return db
    .select()
    .from(oauthClients)
    .where(and(eq(oauthClients.accountId, accountId), isNull(oauthClients.deletedAt)))
    .orderBy(desc(oauthClients.id))
    .all();
}

/** Deletes an account's client and revokes every grant it holds, in one batch; false when not the account's. */
export async function deleteAccountOAuthClient(db: Db, accountId: number, id: number, at: string): Promise<boolean> {
  const [deleted] = await db.batch([
    db
      .update(oauthClients)
      .set({ deletedAt: at })
      .where(and(eq(oauthClients.id, id), eq(oauthClients.accountId, accountId), isNull(oauthClients.deletedAt)))
      .returning({ id: oauthClients.id }),
    db
      .update(oauthGrants)
      .set({ revokedAt: at })
      .where(
        and(
          eq(oauthGrants.clientId, id),
          isNull(oauthGrants.revokedAt),
          exists(
            db
              .select({ one: sql`1` })
              .from(oauthClients)
              .where(and(eq(oauthClients.id, id), eq(oauthClients.accountId, accountId))),
          ),
        ),
      ),
  ]);
  return deleted.length > 0;
}

export async function insertOAuthGrant(
  db: Db,
  values: Pick<OAuthGrant, 'clientId' | 'userId' | 'accountId' | 'scopes' | 'audiences'>,
): Promise<OAuthGrant> {
  return db.insert(oauthGrants).values(values).returning().get();
}

export async function insertOAuthCode(
  db: Db,
  values: Pick<OAuthCode, 'codeHash' | 'grantId' | 'clientId' | 'userId' | 'redirectUri' | 'codeChallenge' | 'scopes' | 'expiresAt'>,
): Promise<OAuthCode> {
  return db.insert(oauthCodes).values(values).returning().get();
}

/** A code with when its grant was revoked (null while live) and the grant's audiences. */
export async function findOAuthCode(
  db: Db,
  codeHash: string,
): Promise<(OAuthCode & { grantRevokedAt: string | null; grantAudiences: string[] }) | undefined> {
  const row = await db
    .select({ code: oauthCodes, grantRevokedAt: oauthGrants.revokedAt, grantAudiences: oauthGrants.audiences })
    .from(oauthCodes)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthCodes.grantId))
    .where(eq(oauthCodes.codeHash, codeHash))
    .get();
  return row && { ...row.code, grantRevokedAt: row.grantRevokedAt, grantAudiences: row.grantAudiences };
}

/** Marks a code used; true for exactly one caller however many race. */
export async function useOAuthCode(db: Db, id: number, at: string): Promise<boolean> {
  const rows = await db
    .update(oauthCodes)
    .set({ usedAt: at })
    .where(and(eq(oauthCodes.id, id), isNull(oauthCodes.usedAt)))
    .returning({ id: oauthCodes.id });
  return rows.length === 1;
}

/** Marks a refresh token used; true for exactly one caller however many race. */
export async function useRefreshToken(db: Db, id: number, at: string): Promise<boolean> {
  const rows = await db
    .update(oauthTokens)
    .set({ usedAt: at })
    .where(and(eq(oauthTokens.id, id), eq(oauthTokens.kind, 'refresh'), isNull(oauthTokens.usedAt)))
    .returning({ id: oauthTokens.id });
  return rows.length === 1;
}

/** Revokes a grant: every token issued under it stops working at once (they are checked against it). */
export async function revokeOAuthGrant(db: Db, grantId: number, at: string): Promise<void> {
  await db
    .update(oauthGrants)
    .set({ revokedAt: at })
    .where(and(eq(oauthGrants.id, grantId), isNull(oauthGrants.revokedAt)));
}

/** A user revoking one of their own grants; false when it is not theirs or already revoked. */
export async function revokeUserOAuthGrant(db: Db, userId: number, grantId: number, at: string): Promise<boolean> {
  const rows = await db
    .update(oauthGrants)
    .set({ revokedAt: at })
    .where(and(eq(oauthGrants.id, grantId), eq(oauthGrants.userId, userId), isNull(oauthGrants.revokedAt)))
    .returning({ id: oauthGrants.id });
  return rows.length > 0;
}

/** The access token serves `audiences`; the refresh token keeps the grant's, so a later refresh may ask for any of them. */
export type IssuedTokenRows = {
  access: { hash: string; expiresAt: string; audiences: string[] };
  refresh: { hash: string; audiences: string[] };
  scopes: string[];
};

/**
 * Stores an access and a refresh token for a grant, and marks the grant issued, in one batch; the grant
 * must still be live, so tokens minted while it is being revoked are never usable.
 */
export async function insertOAuthTokens(db: Db, grantId: number, tokens: IssuedTokenRows, at: string): Promise<void> {
  await db.batch([
    db.insert(oauthTokens).values([
      {
        tokenHash: tokens.access.hash,
        kind: 'access',
        grantId,
        scopes: tokens.scopes,
        audiences: tokens.access.audiences,
        expiresAt: tokens.access.expiresAt,
      },
      { tokenHash: tokens.refresh.hash, kind: 'refresh', grantId, scopes: tokens.scopes, audiences: tokens.refresh.audiences },
    ]),
    db
      .update(oauthGrants)
      .set({ issuedAt: at })
      .where(and(eq(oauthGrants.id, grantId), isNull(oauthGrants.issuedAt))),
  ]);
}

export type OAuthTokenWithGrant = { token: OAuthToken; grant: OAuthGrant; client: OAuthClient; user: User; account: Account };

function tokenQuery(db: Db) {
  return db
    .select({ token: oauthTokens, grant: oauthGrants, client: oauthClients, user: users, account: accounts })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
    .innerJoin(users, eq(users.id, oauthGrants.userId))
    .innerJoin(accounts, eq(accounts.id, oauthGrants.accountId))
    .where(eq(oauthTokens.tokenHash, sql.placeholder('tokenHash')))
    .prepare();
}

const tokenQueries = new WeakMap<Db, ReturnType<typeof tokenQuery>>();

/** A token with its grant, client, user and account: one control round trip, on every OAuth bearer request. */
export async function findOAuthToken(db: Db, tokenHash: string): Promise<OAuthTokenWithGrant | undefined> {
  let query = tokenQueries.get(db);
  if (!query) {
    query = tokenQuery(db);
    tokenQueries.set(db, query);
  }
  return query.get({ tokenHash });
}

export async function deleteOAuthToken(db: Db, id: number): Promise<void> {
  await db.delete(oauthTokens).where(eq(oauthTokens.id, id));
}

/** At most one write per interval per grant, like API tokens' `last_used_at`. */
export async function touchOAuthGrant(db: Db, grantId: number, at: string, staleBefore: string): Promise<void> {
  await db
    .update(oauthGrants)
    .set({ lastUsedAt: at })
    .where(and(eq(oauthGrants.id, grantId), or(isNull(oauthGrants.lastUsedAt), lt(oauthGrants.lastUsedAt, staleBefore))));
}

export type AuthorizedApp = { grant: OAuthGrant; client: Pick<OAuthClient, 'name' | 'clientId' | 'redirectUris'> };

/** The user's live grants whose code was exchanged: the apps acting for them. */
export async function listUserOAuthGrants(db: Db, userId: number): Promise<AuthorizedApp[]> {
  return db
    .select({
      grant: oauthGrants,
      client: { name: oauthClients.name, clientId: oauthClients.clientId, redirectUris: oauthClients.redirectUris },
    })
    .from(oauthGrants)
    .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
    .where(and(eq(oauthGrants.userId, userId), isNull(oauthGrants.revokedAt), isNotNull(oauthGrants.issuedAt)))
    .orderBy(desc(oauthGrants.id))
    .all();
}
