// Formats of the secrets the service issues.
import { randomBase62 } from './random';

/** Tenant API tokens: `tok_` + 40 base62 characters (≈238 bits). */
export const API_TOKEN_PREFIX = 'tok_';
/** Operator keys for /api/partner/v1 (decisions.md › Bootstrap). */
export const PARTNER_KEY_PREFIX = 'ptk_';

/** The whole shape of a tenant token: anything else is refused before it is looked up. */
const API_TOKEN_FORMAT = /^tok_[0-9A-Za-z]{40}$/;

/** True when `value` could be a token this service issued (`generateApiToken`). */
export function isApiTokenFormat(value: string): boolean {
  return API_TOKEN_FORMAT.test(value);
}

/** Characters of a token shown again after creation (prefix + 8 random characters). */
const DISPLAY_PREFIX_LENGTH = API_TOKEN_PREFIX.length + 8;

export function generateApiToken(): { token: string; prefix: string } {
  const token = API_TOKEN_PREFIX + randomBase62(40);
  return { token, prefix: token.slice(0, DISPLAY_PREFIX_LENGTH) };
}

/** OAuth 2.1 secrets (docs/oauth.md): each kind has its own prefix, so one is never taken for another. */
export const OAUTH_ACCESS_TOKEN_PREFIX = 'oat_';
export const OAUTH_REFRESH_TOKEN_PREFIX = 'ort_';
export const OAUTH_CODE_PREFIX = 'oac_';
export const OAUTH_CLIENT_ID_PREFIX = 'oci_';
export const OAUTH_CLIENT_SECRET_PREFIX = 'ocs_';

const OAUTH_ACCESS_TOKEN_FORMAT = /^oat_[0-9A-Za-z]{40}$/;

/** True when `value` could be an OAuth access token this service issued; nothing else is looked up. */
export function isOAuthAccessTokenFormat(value: string): boolean {
  return OAUTH_ACCESS_TOKEN_FORMAT.test(value);
}

/** An OAuth secret of one kind: its prefix + 40 base62 characters (≈238 bits). */
export function generateOAuthSecret(prefix: string): string {
  return prefix + randomBase62(40);
}
