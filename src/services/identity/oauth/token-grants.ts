// The token endpoint's grants (OAuth 2.1 §4.1.3, §4.3) and revocation (RFC 7009). A code and a refresh
// token are single use: a guarded UPDATE decides which of two racing requests wins, and any second use
// revokes the whole grant, since it means the secret leaked (OAuth 2.1 §4.1.3, §4.3.1).
import type { Db } from '../../../db/client';
import {
  deleteOAuthToken,
  findOAuthCode,
  findOAuthToken,
  insertOAuthTokens,
  revokeOAuthGrant,
  useOAuthCode,
  useRefreshToken,
} from '../../../db/queries/oauth';
import type { OAuthClient } from '../../../db/schema/index';
import { sha256Hex } from '../../../lib/crypto';
import { generateOAuthSecret, OAUTH_ACCESS_TOKEN_PREFIX, OAUTH_REFRESH_TOKEN_PREFIX } from '../../../lib/tokens';
import { audienceOf, DEFAULT_AUDIENCES } from '../../../lib/audiences';
import { OAuthError } from './oauth-error';
import { verifierMatches } from './pkce';

/** Spec › Limits: an OAuth access token lasts 1 hour. */
export const ACCESS_TOKEN_LIFETIME_S = 3600;

export type TokenResponse = { access_token: string; token_type: 'Bearer'; expires_in: number; refresh_token: string; scope: string };

/** Where the tokens serve: the grant's audiences, or the one `resource` names (RFC 8707 §2.2), which the grant must hold. */
export function tokenAudiences(origin: string, grantAudiences: readonly string[], resource: string | undefined): string[] {
  const granted = grantAudiences.length ? grantAudiences : DEFAULT_AUDIENCES;
  if (resource === undefined) return [...granted];
  const audience = audienceOf(origin, resource);
  if (!audience)
    throw new OAuthError('invalid_target', `This server serves the resources ${origin}/api and ${origin}/mcp; ${resource} is neither.`);
  if (!granted.includes(audience)) {
    throw new OAuthError('invalid_target', `The grant does not cover ${resource}; authorize again with resource=${resource}.`);
  }
  return [audience];
}

async function issueTokens(
  db: Db,
  grantId: number,
  scopes: string[],
  audiences: { access: string[]; grant: string[] },
  now: number,
): Promise<TokenResponse> {
  const access = generateOAuthSecret(OAUTH_ACCESS_TOKEN_PREFIX);
  const refresh = generateOAuthSecret(OAUTH_REFRESH_TOKEN_PREFIX);
  await insertOAuthTokens(
    db,
    grantId,
    {
      access: {
        hash: await sha256Hex(access),
        expiresAt: new Date(now + ACCESS_TOKEN_LIFETIME_S * 1000).toISOString(),
        audiences: audiences.access,
      },
      refresh: { hash: await sha256Hex(refresh), audiences: audiences.grant },
      scopes,
    },
    new Date(now).toISOString(),
  );
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_LIFETIME_S,
    refresh_token: refresh,
    scope: scopes.join(' '),
  };
}

const badCode = () => new OAuthError('invalid_grant', 'The authorization code is not valid, has expired or was already used.');

/** `origin`: this server's base URL, against which a `resource` parameter is judged. */
export async function exchangeCode(
  db: Db,
  client: OAuthClient,
  form: Record<string, string>,
  origin: string,
  now = Date.now(),
): Promise<TokenResponse> {
  if (!form.code) throw new OAuthError('invalid_request', 'Send the authorization code (code).');
  if (!form.code_verifier) throw new OAuthError('invalid_request', 'PKCE is required: send code_verifier.');
  if (!form.redirect_uri) throw new OAuthError('invalid_request', 'Send the redirect_uri the code was issued for.');
  const code = await findOAuthCode(db, await sha256Hex(form.code));
  if (!code || code.clientId !== client.id) throw badCode();
  const at = new Date(now).toISOString();
  if (code.usedAt) {
    await revokeOAuthGrant(db, code.grantId, at);
    throw badCode();
  }
  if (Date.parse(code.expiresAt) <= now || code.grantRevokedAt) throw badCode();
  if (form.redirect_uri !== code.redirectUri) {
    throw new OAuthError('invalid_grant', 'redirect_uri differs from the one the code was issued for.');
  }
  if (!(await verifierMatches(form.code_verifier, code.codeChallenge))) {
    throw new OAuthError('invalid_grant', 'The code_verifier does not match the code_challenge (PKCE S256).');
  }
  // Judged before the code is spent, so a bad resource leaves the client its code.
  const audiences = tokenAudiences(origin, code.grantAudiences, form.resource);
  // The loser of a race is a second use like any other: the grant goes.
  if (!(await useOAuthCode(db, code.id, at))) {
    await revokeOAuthGrant(db, code.grantId, at);
    throw badCode();
  }
  return issueTokens(db, code.grantId, code.scopes, { access: audiences, grant: code.grantAudiences }, now);
}

const badRefresh = () => new OAuthError('invalid_grant', 'The refresh token is not valid, was revoked or was already used.');

export async function refreshTokens(
  db: Db,
  client: OAuthClient,
  form: Record<string, string>,
  origin: string,
  now = Date.now(),
): Promise<TokenResponse> {
  if (!form.refresh_token) throw new OAuthError('invalid_request', 'Send the refresh token (refresh_token).');
  const found = await findOAuthToken(db, await sha256Hex(form.refresh_token));
  if (!found || found.token.kind !== 'refresh' || found.grant.clientId !== client.id) throw badRefresh();
  const at = new Date(now).toISOString();
  if (found.grant.revokedAt) throw badRefresh();
  const reused = async () => {
    await revokeOAuthGrant(db, found.grant.id, at);
    return badRefresh();
  };
  if (found.token.usedAt) throw await reused();
  // Checked before the token is spent, so a bad request leaves the client its refresh token.
  let scopes = found.token.scopes;
  if (form.scope !== undefined) {
    const requested = [...new Set(form.scope.split(' ').filter(Boolean))];
    const beyond = requested.filter((scope) => !found.token.scopes.includes(scope));
    if (requested.length === 0 || beyond.length) {
      throw new OAuthError('invalid_scope', `A refresh can only keep or narrow the granted scopes (${found.token.scopes.join(' ')}).`);
    }
    scopes = requested;
  }
  const audiences = tokenAudiences(origin, found.grant.audiences, form.resource);
  // The loser of two racing refreshes is a second use like any other.
  if (!(await useRefreshToken(db, found.token.id, at))) throw await reused();
  if (found.user.archivedAt) {
    await revokeOAuthGrant(db, found.grant.id, at);
    throw new OAuthError('invalid_grant', 'The user who authorized this application has been removed from the account.');
  }
  return issueTokens(db, found.grant.id, scopes, { access: audiences, grant: found.grant.audiences }, now);
}

/**
 * RFC 7009: an access token is deleted; a refresh token revokes its grant (and so every token of it).
 * A token that is unknown or another client's changes nothing and still answers 200 (§2.2).
 */
export async function revokeToken(db: Db, client: OAuthClient, token: string | undefined, now = Date.now()): Promise<void> {
  if (!token) throw new OAuthError('invalid_request', 'Send the token to revoke (token).');
  const found = await findOAuthToken(db, await sha256Hex(token));
  if (!found || found.grant.clientId !== client.id) return;
  if (found.token.kind === 'refresh') await revokeOAuthGrant(db, found.grant.id, new Date(now).toISOString());
  else await deleteOAuthToken(db, found.token.id);
}
