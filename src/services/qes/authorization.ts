// The signer's trip to the QES provider and back (CSC API v2 § 8.4.2, RFC 6749 § 4.1, RFC 7636): a PKCE
// pair per authorization, and a `state` bound to one signer and one authorization — an HMAC under a key
// derived from ENCRYPTION_KEY, so a callback carrying another signer's (or a forged, or an old) state is
// refused before its code is ever exchanged.
import { derivedHmacKey } from '../../lib/encryption';
import { timingSafeEqualString } from '../../lib/crypto';
import { fromBase64Url, toBase64Url } from '../../lib/base64';
import type { CscClient } from './csc-client';
import { QesProviderError } from './provider-error';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** How long a signer may stay at the provider before the state is refused (the provider's code lives less). */
export const STATE_TTL_SECONDS = 15 * 60;
const STATE_KEY_PURPOSE = 'signing-service qes authorization state v1';

/** A new PKCE pair (RFC 7636 § 4.1–4.2): 32 random bytes as the verifier, its S256 challenge. */
export async function newPkcePair(): Promise<{ codeVerifier: string; codeChallenge: string }> {
  const codeVerifier = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  const codeChallenge = toBase64Url(await crypto.subtle.digest('SHA-256', encoder.encode(codeVerifier)));
  return { codeVerifier, codeChallenge };
}

async function mac(secret: string | undefined, payload: string): Promise<string> {
  return toBase64Url(await crypto.subtle.sign('HMAC', await derivedHmacKey(secret, STATE_KEY_PURPOSE), encoder.encode(payload)));
}

/** `signer`: who is authorizing (e.g. `submitter:<id>`); the state names it, a nonce and its expiry. */
export async function signerState(secret: string | undefined, signer: string, now = new Date()): Promise<string> {
  const claims = {
    s: signer,
    n: toBase64Url(crypto.getRandomValues(new Uint8Array(16))),
    e: Math.floor(now.getTime() / 1000) + STATE_TTL_SECONDS,
  };
  const payload = toBase64Url(encoder.encode(JSON.stringify(claims)));
  return `${payload}.${await mac(secret, payload)}`;
}

/** Whether `state` was made by signerState for this signer and has not expired. */
export async function stateBelongsTo(secret: string | undefined, state: string, signer: string, now = new Date()): Promise<boolean> {
  const [payload, tag, extra] = state.split('.');
  if (!payload || !tag || extra !== undefined || state.length > 1024) return false;
  if (!timingSafeEqualString(await mac(secret, payload), tag)) return false;
  const bytes = fromBase64Url(payload);
  if (!bytes) return false;
  try {
    const claims = JSON.parse(decoder.decode(bytes)) as { s?: unknown; e?: unknown };
    return claims.s === signer && typeof claims.e === 'number' && claims.e >= Math.floor(now.getTime() / 1000);
  } catch {
    return false;
  }
}

/**
 * The provider's redirect back (RFC 6749 § 4.1.2): the code, once the state is this signer's. A refusal
 * or an error the provider sent becomes a QesProviderError; its own error_description is not repeated.
 */
export async function authorizationCode(
  secret: string | undefined,
  query: URLSearchParams,
  signer: string,
  now = new Date(),
): Promise<string> {
  const state = query.get('state') ?? '';
  if (!(await stateBelongsTo(secret, state, signer, now))) {
    throw new QesProviderError(
      'authorization_expired',
      'The authorization came back with a state that is not this signer’s or has expired.',
    );
  }
  const error = query.get('error');
  if (error === 'access_denied') throw new QesProviderError('declined', 'The signer declined the authorization at the QES provider.');
  if (error === 'temporarily_unavailable' || error === 'server_error')
    throw new QesProviderError('unavailable', `The QES provider could not authorize (${error}).`);
  if (error)
    throw new QesProviderError(
      'bad_response',
      `The QES provider refused the authorization request (${/^[a-z_]{1,40}$/.test(error) ? error : 'unknown error'}).`,
    );
  const code = query.get('code');
  if (!code || code.length > 2048) throw new QesProviderError('bad_response', 'The QES provider came back without an authorization code.');
  return code;
}

/**
 * Everything the signer's redirect needs: the provider's authorization URL for these hashes, and the
 * PKCE verifier to keep (with the signer's session) until the code comes back.
 */
export async function beginAuthorization(
  client: CscClient,
  secret: string | undefined,
  input: { signer: string; redirectUri: string; hashes: Uint8Array[]; description?: string },
): Promise<{ url: string; state: string; codeVerifier: string }> {
  const { codeVerifier, codeChallenge } = await newPkcePair();
  const state = await signerState(secret, input.signer);
  const url = await client.authorizationUrl({
    redirectUri: input.redirectUri,
    state,
    codeChallenge,
    hashes: input.hashes,
    description: input.description,
  });
  return { url, state, codeVerifier };
}
