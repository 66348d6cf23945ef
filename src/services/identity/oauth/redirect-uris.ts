// Redirect URI rules for OAuth clients (OAuth 2.1 §2.3.1, RFC 8252 §7.3): exact strings, https, or
// http only on a loopback address; never a fragment.

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
export const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;

/** Why `value` cannot be a redirect URI, as a sentence; null when it can. */
export function redirectUriProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0) return 'Each redirect URI must be a non-empty string.';
  if (value.length > MAX_URI_LENGTH) return `Redirect URIs are limited to ${MAX_URI_LENGTH} characters.`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${value} is not an absolute URL.`;
  }
  if (value.includes('#')) return `${value} has a fragment; redirect URIs must not (OAuth 2.1 §2.3.1).`;
  if (url.username || url.password) return `${value} carries credentials; redirect URIs must not.`;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return `${value} must use https (http is allowed only on localhost, 127.0.0.1 or [::1]).`;
}
