// The error of the OAuth endpoints: RFC 6749 §5.2 / RFC 7591 §3.2.2 `{error, error_description}`, not the
// API's envelope, because OAuth clients read these codes.

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  /** RFC 8707 §2: a `resource` this server does not serve, or one beyond the grant. */
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'unsupported_token_type'
  | 'slow_down';

export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    readonly status: 400 | 401 | 413 | 429 = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}
