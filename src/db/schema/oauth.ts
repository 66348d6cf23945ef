// OAuth 2.1 authorization server state (docs/oauth.md): clients, grants, authorization codes and tokens.
// Control database: a bearer token or a code is looked up before the account is known. Every secret is
// stored as its SHA-256, never itself.
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

import { accounts, users } from './accounts';
import { now } from './columns';

export const oauthClients = sqliteTable(
  'oauth_clients',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Public identifier (`oci_…`), sent by the client in every request. */
    clientId: text('client_id').notNull(),
    /** SHA-256 hex of the client secret; null for public clients (`token_endpoint_auth_method` none). */
    secretHash: text('secret_hash'),
    name: text('name').notNull(),
    /** JSON array of exact redirect URIs (no fragments; https, or http on a loopback host). */
    redirectUris: text('redirect_uris', { mode: 'json' }).$type<string[]>().notNull(),
    /** none | client_secret_basic | client_secret_post */
    tokenEndpointAuthMethod: text('token_endpoint_auth_method').notNull(),
    /** Null for dynamic registration (RFC 7591); the account whose admin registered it otherwise. */
    accountId: integer('account_id').references(() => accounts.id),
    createdByUserId: integer('created_by_user_id').references(() => users.id),
    createdAt: text('created_at').notNull().default(now),
    /** Deleted by an admin: the client is unknown from then on and its grants are revoked. */
    deletedAt: text('deleted_at'),
  },
  (t) => [uniqueIndex('oauth_clients_client_id').on(t.clientId), index('oauth_clients_account').on(t.accountId)],
);

/** One user's consent to one client for some scopes; revoking it kills every token issued under it. */
export const oauthGrants = sqliteTable(
  'oauth_grants',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    clientId: integer('client_id')
      .notNull()
      .references(() => oauthClients.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    /** JSON array of granted scope names, never beyond the user's role (src/services/identity/oauth-scopes.ts). */
    scopes: text('scopes', { mode: 'json' }).$type<string[]>().notNull(),
    /**
     * JSON array of the resources (RFC 8707 audiences) its tokens may be used at: `api` (the REST API)
     * and/or `mcp` (the MCP server); a grant asked for without `resource` serves the REST API only.
     */
    audiences: text('audiences', { mode: 'json' }).$type<string[]>().notNull().default(sql`'["api"]'`),
    createdAt: text('created_at').notNull().default(now),
    /** Set when its code was exchanged: a grant whose code never was is not shown as an authorized app. */
    issuedAt: text('issued_at'),
    lastUsedAt: text('last_used_at'),
    revokedAt: text('revoked_at'),
  },
  (t) => [index('oauth_grants_user').on(t.userId), index('oauth_grants_client').on(t.clientId)],
);

export const oauthCodes = sqliteTable(
  'oauth_codes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    codeHash: text('code_hash').notNull(),
    grantId: integer('grant_id')
      .notNull()
      .references(() => oauthGrants.id),
    clientId: integer('client_id')
      .notNull()
      .references(() => oauthClients.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    redirectUri: text('redirect_uri').notNull(),
    /** PKCE S256 challenge: base64url(SHA-256(code_verifier)). */
    codeChallenge: text('code_challenge').notNull(),
    scopes: text('scopes', { mode: 'json' }).$type<string[]>().notNull(),
    expiresAt: text('expires_at').notNull(),
    /** Set once by a guarded UPDATE: a second use finds it set and revokes the grant (OAuth 2.1 §4.1.3). */
    usedAt: text('used_at'),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [uniqueIndex('oauth_codes_hash').on(t.codeHash)],
);

/** Access tokens (1 hour) and refresh tokens (rotated, single use) of a grant. */
export const oauthTokens = sqliteTable(
  'oauth_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tokenHash: text('token_hash').notNull(),
    /** access | refresh */
    kind: text('kind').notNull(),
    grantId: integer('grant_id')
      .notNull()
      .references(() => oauthGrants.id),
    /** JSON array: the grant's scopes or, after a narrowing refresh, fewer. */
    scopes: text('scopes', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    /** JSON array: where the token is accepted (`api`, `mcp`), the grant's audiences or, narrowed by `resource` at the token endpoint, fewer. */
    audiences: text('audiences', { mode: 'json' }).$type<string[]>().notNull().default(sql`'["api"]'`),
    /** Access tokens only; refresh tokens live as long as their grant. */
    expiresAt: text('expires_at'),
    /** Refresh tokens: set once by a guarded UPDATE; presenting it again revokes the grant. */
    usedAt: text('used_at'),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [uniqueIndex('oauth_tokens_hash').on(t.tokenHash), index('oauth_tokens_grant').on(t.grantId)],
);

export type OAuthClient = typeof oauthClients.$inferSelect;
export type OAuthGrant = typeof oauthGrants.$inferSelect;
export type OAuthCode = typeof oauthCodes.$inferSelect;
export type OAuthToken = typeof oauthTokens.$inferSelect;
