// The `WWW-Authenticate` challenge of a refused request (RFC 6750 §3, RFC 7235 §3.1): a 401 always
// names the Bearer scheme; when a token was presented it says `invalid_token` with the refusal's sentence,
// and a 403 for a missing scope says `insufficient_scope` with the scope needed (RFC 6750 §3.1).
import { ApiError } from '../../lib/errors';

export const BEARER_REALM = 'api';

/** RFC 6750 §3: error_description is limited to %x20-21 / %x23-5B / %x5D-7E; anything else becomes a plain stand-in. */
function quotable(text: string): string {
  return text
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d"]/g, "'")
    .replace(/\\/g, '/')
    .replace(/[^\x20-\x7e]/g, '?')
    .slice(0, 300);
}

/**
 * The header value for a 401; `description` when a token was presented and refused. `resourceMetadata`:
 * where the protected resource's metadata is (RFC 9728 §5.1), so an MCP client can find the authorization server.
 */
export function bearerChallenge(description?: string, resourceMetadata?: string): string {
  const metadata = resourceMetadata ? `, resource_metadata="${resourceMetadata}"` : '';
  if (description === undefined) return `Bearer realm="${BEARER_REALM}"${metadata}`;
  return `Bearer realm="${BEARER_REALM}"${metadata}, error="invalid_token", error_description="${quotable(description)}"`;
}

/** The header value for a 403 that lacks a scope. */
export function insufficientScopeChallenge(scope: string): string {
  return `Bearer realm="${BEARER_REALM}", error="insufficient_scope", scope="${quotable(scope)}"`;
}

/** `error` with the challenge added, when it is a 401; any other error unchanged. */
export function withBearerChallenge(error: unknown, tokenPresented: boolean, resourceMetadata?: string): unknown {
  if (!(error instanceof ApiError) || error.status !== 401 || error.headers['WWW-Authenticate']) return error;
  const message = typeof error.extra.message === 'string' ? error.extra.message : error.message;
  const challenge = bearerChallenge(tokenPresented ? message : undefined, resourceMetadata);
  return new ApiError(error.status, error.error, error.extra, { ...error.headers, 'WWW-Authenticate': challenge });
}
