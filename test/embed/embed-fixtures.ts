// Embed tokens for tests: minted through the real API, or signed by hand with the account's stored key
// (decrypted as the service does) to make expired or altered ones.
import { env } from 'cloudflare:test';
import { SignJWT } from 'jose';
import { decryptAtRest } from '../../src/lib/encryption';
import { api } from '../helpers';

export async function mintToken(apiToken: string, body: Record<string, unknown>): Promise<string> {
  const res = await api('POST', '/api/embed/token', { token: apiToken, body });
  if (res.status !== 201) throw new Error(`mint: ${res.status} ${res.text}`);
  return res.json.token;
}

/** A request carrying an embed JWT the way an embedding page sends it. */
export function embedApi(
  method: string,
  path: string,
  jwt: string | null,
  options: { body?: unknown; headers?: Record<string, string> } = {},
) {
  return api(method, path, {
    token: null,
    body: options.body,
    headers: { ...(jwt ? { Authorization: `Bearer ${jwt}` } : {}), ...options.headers },
  });
}

/** The account's current embed key as the service holds it (made by the first mint). */
export async function storedKey(accountId: number, column: 'embed_key' | 'embed_key_previous' = 'embed_key'): Promise<Uint8Array> {
  const row = await env.CONTROL_DB.prepare(`SELECT ${column} AS sealed FROM accounts WHERE id = ?`)
    .bind(accountId)
    .first<{ sealed: string }>();
  return decryptAtRest(env.ENCRYPTION_KEY, row!.sealed, `embed-key:${accountId}`);
}

/** A token signed with `key` and the claims given (defaults: a valid token for `sub`, issued now). */
export async function signToken(
  key: Uint8Array,
  claims: { aud: string; uid: number; sub: string; scope?: string; iat?: number; exp?: number; iss?: string },
): Promise<string> {
  const iat = claims.iat ?? Math.floor(Date.now() / 1000);
  return new SignJWT({ scope: claims.scope ?? 'sign view', uid: claims.uid })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(claims.iss ?? 'signing-service')
    .setAudience(claims.aud)
    .setSubject(claims.sub)
    .setJti(crypto.randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(claims.exp ?? iat + 4 * 3600)
    .sign(key);
}
