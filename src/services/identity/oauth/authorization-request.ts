// The authorization request (OAuth 2.1 §4.1.1), checked in the order that keeps redirects safe: the
// client and its exact redirect URI first (a bad one is shown, never redirected to), then everything
// else, whose errors go back to the client's redirect URI (§4.1.2.1).
import type { Db } from '../../../db/client';
import { findOAuthClient, insertOAuthCode, insertOAuthGrant } from '../../../db/queries/oauth';
import type { OAuthClient } from '../../../db/schema/index';
import { sha256Hex } from '../../../lib/crypto';
import { isScope, type Scope } from '../../../lib/scopes';
import { audienceOf, DEFAULT_AUDIENCES, type Audience } from '../../../lib/audiences';
import { generateOAuthSecret, OAUTH_CODE_PREFIX } from '../../../lib/tokens';
import { CHALLENGE } from './pkce';

/** OAuth 2.1 §4.1.2: a short-lived code; ours lasts 60 seconds. */
export const CODE_LIFETIME_MS = 60_000;

export type AuthorizationRequest = {
  client: OAuthClient;
  redirectUri: string;
  state: string | null;
  scopes: Scope[];
  codeChallenge: string;
  /** RFC 8707: the resources its tokens will serve; `api` alone when the request named none. */
  audiences: Audience[];
};

/** Shown on an error page: the client or redirect URI cannot be trusted with a redirect. */
export type PageError = { page: string };
/** Sent back to the client's redirect URI. */
export type RedirectError = { redirect: { redirectUri: string; state: string | null; error: string; description: string } };

/**
 * `resources`: every `resource` parameter (RFC 8707 §2 allows several), judged against `origin`, this
 * server's own base URL.
 */
export async function checkAuthorizationRequest(
  db: Db,
  params: Record<string, string | undefined>,
  resources: readonly string[] = [],
  origin = '',
): Promise<AuthorizationRequest | PageError | RedirectError> {
  const clientId = params.client_id;
  if (!clientId) return { page: 'The request names no application (client_id is missing).' };
  const client = await findOAuthClient(db, clientId);
  if (!client) return { page: 'The application asking for access is not registered here (unknown client_id).' };
  let redirectUri = params.redirect_uri;
  if (!redirectUri) {
    // OAuth 2.1 §4.1.1: optional only when the client registered exactly one.
    if (client.redirectUris.length !== 1)
      return { page: 'The request must name one of the application’s registered redirect URIs (redirect_uri).' };
    redirectUri = client.redirectUris[0];
  }
  if (!client.redirectUris.includes(redirectUri)) {
    return { page: 'The redirect URI does not exactly match one registered for this application, so this page will not send you there.' };
  }
  const state = params.state ?? null;
  const fail = (error: string, description: string): RedirectError => ({
    redirect: { redirectUri: redirectUri!, state, error, description },
  });
  if (params.response_type !== 'code') return fail('unsupported_response_type', 'response_type must be code.');
  if (!params.code_challenge) return fail('invalid_request', 'PKCE is required: send code_challenge and code_challenge_method=S256.');
  if (params.code_challenge_method !== 'S256')
    return fail('invalid_request', 'code_challenge_method must be S256 (plain is not accepted).');
  if (!CHALLENGE.test(params.code_challenge))
    return fail('invalid_request', 'code_challenge must be the 43-character base64url SHA-256 of the code verifier.');
  const requested = (params.scope ?? '').split(' ').filter(Boolean);
  if (requested.length === 0) return fail('invalid_scope', 'Request at least one scope.');
  const unknown = requested.filter((scope) => !isScope(scope));
  if (unknown.length) return fail('invalid_scope', `Unknown scope: ${unknown.join(', ')}.`);
  const audiences = new Set<Audience>(resources.length ? [] : DEFAULT_AUDIENCES);
  for (const resource of resources) {
    const audience = audienceOf(origin, resource);
    if (!audience)
      return fail('invalid_target', `This server serves the resources ${origin}/api and ${origin}/mcp; ${resource} is neither.`);
    audiences.add(audience);
  }
  return {
    client,
    redirectUri,
    state,
    scopes: [...new Set(requested as Scope[])],
    codeChallenge: params.code_challenge,
    audiences: [...audiences],
  };
}

/** The redirect carrying an error or a code, with `state` and `iss` (RFC 9207) when present. */
export function clientRedirect(redirectUri: string, params: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return url.toString();
}

/** The user allowed: a grant for the scopes their role allows and a single-use code for it. */
export async function approveAuthorization(
  db: Db,
  request: AuthorizationRequest,
  user: { id: number; accountId: number },
  scopes: Scope[],
  now = Date.now(),
): Promise<string> {
  const grant = await insertOAuthGrant(db, {
    clientId: request.client.id,
    userId: user.id,
    accountId: user.accountId,
    scopes,
    audiences: request.audiences,
  });
  const code = generateOAuthSecret(OAUTH_CODE_PREFIX);
  await insertOAuthCode(db, {
    codeHash: await sha256Hex(code),
    grantId: grant.id,
    clientId: request.client.id,
    userId: user.id,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    scopes,
    expiresAt: new Date(now + CODE_LIFETIME_MS).toISOString(),
  });
  return code;
}
