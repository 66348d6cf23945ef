// PKCE S256 (RFC 7636 §4.6): the code verifier's SHA-256, base64url without padding, must equal the challenge.
import { toBase64Url } from '../../../lib/base64';
import { timingSafeEqualString } from '../../../lib/crypto';

/** RFC 7636 §4.1: 43–128 unreserved characters; a base64url SHA-256 is exactly 43. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
export const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export async function verifierMatches(verifier: string, challenge: string): Promise<boolean> {
  if (!VERIFIER.test(verifier)) return false;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return timingSafeEqualString(toBase64Url(digest), challenge);
}
