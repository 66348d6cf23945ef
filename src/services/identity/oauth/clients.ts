// OAuth clients: registration (RFC 7591, or an account admin on /settings/apps) and client
// authentication at the token and revocation endpoints (RFC 6749 §2.3.1).
import type { Db } from '../../../db/client';
import { findOAuthClient, insertOAuthClient } from '../../../db/queries/oauth';
import type { OAuthClient } from '../../../db/schema/index';
import { sha256Hex, timingSafeEqualString } from '../../../lib/crypto';
import { generateOAuthSecret, OAUTH_CLIENT_ID_PREFIX, OAUTH_CLIENT_SECRET_PREFIX } from '../../../lib/tokens';
import { OAuthError } from './oauth-error';
import { MAX_REDIRECT_URIS, redirectUriProblem } from './redirect-uris';

export const TOKEN_ENDPOINT_AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'] as const;
export type TokenEndpointAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];
const MAX_NAME_LENGTH = 100;

export type ClientMetadata = {
  client_name: string;
  redirect_uris: string[];
  token_endpoint_auth_method: TokenEndpointAuthMethod;
  grant_types: string[];
  response_types: string[];
};

/** Checks RFC 7591 metadata as sent (any JSON); the first problem throws as RFC 7591 §3.2.2 says. */
export function checkClientMetadata(input: unknown): ClientMetadata {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new OAuthError('invalid_client_metadata', 'Send the client metadata as a JSON object (RFC 7591).');
  }
  const body = input as Record<string, unknown>;
  const uris = body.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0) {
    throw new OAuthError('invalid_redirect_uri', 'redirect_uris must be a non-empty array of URLs.');
  }
  if (uris.length > MAX_REDIRECT_URIS)
    throw new OAuthError('invalid_redirect_uri', `At most ${MAX_REDIRECT_URIS} redirect URIs can be registered.`);
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError('invalid_redirect_uri', problem);
  }
  const name = typeof body.client_name === 'string' ? body.client_name.trim() : '';
  if (!name) throw new OAuthError('invalid_client_metadata', 'client_name is required: the consent page shows it to the user.');
  if (name.length > MAX_NAME_LENGTH)
    throw new OAuthError('invalid_client_metadata', `client_name is limited to ${MAX_NAME_LENGTH} characters.`);
  const method = body.token_endpoint_auth_method ?? 'client_secret_basic';
  if (typeof method !== 'string' || !(TOKEN_ENDPOINT_AUTH_METHODS as readonly string[]).includes(method)) {
    throw new OAuthError('invalid_client_metadata', `token_endpoint_auth_method must be one of ${TOKEN_ENDPOINT_AUTH_METHODS.join(', ')}.`);
  }
  const grantTypes = body.grant_types ?? ['authorization_code', 'refresh_token'];
  if (!Array.isArray(grantTypes) || grantTypes.some((type) => type !== 'authorization_code' && type !== 'refresh_token')) {
    throw new OAuthError('invalid_client_metadata', 'grant_types may list only authorization_code and refresh_token.');
  }
  const responseTypes = body.response_types ?? ['code'];
  if (!Array.isArray(responseTypes) || responseTypes.some((type) => type !== 'code')) {
    throw new OAuthError('invalid_client_metadata', 'response_types may list only code.');
  }
  return {
    client_name: name,
    redirect_uris: [...new Set(uris as string[])],
    token_endpoint_auth_method: method as TokenEndpointAuthMethod,
    grant_types: grantTypes as string[],
    response_types: responseTypes as string[],
  };
}

/** Stores a client; the secret (confidential clients) exists only in this return value. */
export async function registerClient(
  db: Db,
  metadata: ClientMetadata,
  owner: { accountId: number; userId: number } | null,
): Promise<{ client: OAuthClient; clientSecret: string | null }> {
  const clientSecret = metadata.token_endpoint_auth_method === 'none' ? null : generateOAuthSecret(OAUTH_CLIENT_SECRET_PREFIX);
  const client = await insertOAuthClient(db, {
    clientId: generateOAuthSecret(OAUTH_CLIENT_ID_PREFIX),
    secretHash: clientSecret ? await sha256Hex(clientSecret) : null,
    name: metadata.client_name,
    redirectUris: metadata.redirect_uris,
    tokenEndpointAuthMethod: metadata.token_endpoint_auth_method,
    accountId: owner?.accountId ?? null,
    createdByUserId: owner?.userId ?? null,
  });
  return { client, clientSecret };
}

/** The registration response (RFC 7591 §3.2.1). */
export function clientInformation(client: OAuthClient, clientSecret: string | null) {
  return {
    client_id: client.clientId,
    ...(clientSecret ? { client_secret: clientSecret, client_secret_expires_at: 0 } : {}),
    client_id_issued_at: Math.floor(Date.parse(client.createdAt) / 1000),
    client_name: client.name,
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };
}

function decodeBasic(header: string | undefined): { id: string; secret: string } | null {
  const match = header?.match(/^Basic\s+([A-Za-z0-9+/=]+)\s*$/i);
  if (!match) return null;
  let decoded: string;
  try {
    decoded = atob(match[1]);
  } catch {
    return null;
  }
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    // RFC 6749 §2.3.1: both parts are form-urlencoded before they are joined.
    return {
      id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return null;
  }
}

/**
 * The client calling the token or revocation endpoint, authenticated by the method it registered: a
 * public client names itself with `client_id`; a confidential one proves its secret (Basic or in the body).
 */
export async function authenticateClient(db: Db, authorization: string | undefined, form: Record<string, string>): Promise<OAuthClient> {
  const basic = decodeBasic(authorization);
  if (authorization && !basic)
    throw new OAuthError('invalid_client', 'The Authorization header must be Basic client_id:client_secret.', 401);
  const clientId = basic?.id ?? form.client_id;
  if (!clientId)
    throw new OAuthError('invalid_client', 'Identify the client: send client_id, or client_id and client_secret with HTTP Basic.', 401);
  if (basic && form.client_id && form.client_id !== basic.id)
    throw new OAuthError('invalid_request', 'client_id in the body differs from the one in the Authorization header.');
  const client = await findOAuthClient(db, clientId);
  if (!client) throw new OAuthError('invalid_client', 'Unknown client_id.', 401);
  const method = client.tokenEndpointAuthMethod as TokenEndpointAuthMethod;
  if (method === 'none') {
    if (basic || form.client_secret)
      throw new OAuthError('invalid_client', 'This client is registered as public (token_endpoint_auth_method none): send no secret.', 401);
    return client;
  }
  const secret = method === 'client_secret_basic' ? basic?.secret : form.client_secret;
  if (method === 'client_secret_basic' && !basic)
    throw new OAuthError('invalid_client', 'This client authenticates with HTTP Basic (client_secret_basic).', 401);
  if (method === 'client_secret_post' && (basic || !form.client_secret)) {
    throw new OAuthError('invalid_client', 'This client authenticates with client_secret in the body (client_secret_post).', 401);
  }
  if (!secret || !client.secretHash || !timingSafeEqualString(await sha256Hex(secret), client.secretHash)) {
    throw new OAuthError('invalid_client', 'The client secret is not valid.', 401);
  }
  return client;
}
