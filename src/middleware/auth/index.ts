// Authenticates tenant API requests: an API token (X-Auth-Token or Authorization: Bearer), an OAuth
// access token (Authorization: Bearer oat_…, docs/oauth.md), an embed JWT (docs/embedding.md) or, from the console, the session cookie (spec › Authentication). Every kind ends as one `Principal` whose
// `credential` the later checks (scopes, rate limit, idempotency, audit) read.
import type { Context, MiddlewareHandler } from 'hono';
import type { Credential } from '../../env';
import type { AppEnv } from '../../app-env';
import { useAccountScope } from '../databases';
import { findPrincipalByTokenHash, touchLastUsed } from '../../db/queries/access-tokens';
import { sha256Hex, timingSafeEqualString } from '../../lib/crypto';
import { ApiError, forbidden, unauthorized } from '../../lib/errors';
import { ipAllowed } from '../../lib/ip';
import { clientIp } from '../../lib/request';
import { isApiTokenFormat, isOAuthAccessTokenFormat, OAUTH_ACCESS_TOKEN_PREFIX, PARTNER_KEY_PREFIX } from '../../lib/tokens';
import { findOAuthToken, touchOAuthGrant } from '../../db/queries/oauth';
import { findSession, mustEnrolMfa } from '../../services/identity/sessions';
import { readSessionCookie } from '../console-session/session-cookie';
import { failedAuthentications, type FailedAuthenticationOptions } from './failed-authentications';
import { withBearerChallenge } from './bearer-challenge';
import { mcpCallOf } from './mcp-calls';
import type { Audience } from '../../lib/audiences';
import { findEmbedPrincipal } from '../../db/queries/accounts';
import { verificationKeys } from '../../services/embed/embed-keys';
import { EmbedTokenRefused, isEmbedTokenShape, unverifiedAddressee, verifyEmbedToken } from '../../services/embed/embed-tokens';
import { embedRouteAllowed, embedScopes } from '../../services/embed/embed-access';

export type AuthOptions = {
  /** How stale `last_used_at` may get before a request refreshes it (one write per interval). */
  lastUsedIntervalMs?: number;
  /** The per-address limit on failed authentications (docs/limits.md › Failed authentication). */
  failures?: FailedAuthenticationOptions;
  /**
   * The resource this middleware guards (RFC 8707): OAuth access tokens must have been issued for it.
   * `mcp` also accepts only bearer credentials and makes the audit actor `mcp:<client>`. Default `api`;
   * a request the MCP server makes for a tool call (mcp-calls.ts) is judged as `mcp`.
   */
  audience?: Audience;
  /** The RFC 9728 metadata URL a 401's challenge names (`resource_metadata`), if any. */
  resourceMetadata?: (c: Context<AppEnv>) => string;
};

/** What the request reaches: the guarded resource, and for MCP who the audit trail names. */
type Reach = { audience: Audience; mcp: boolean };

export function presentedToken(header: (name: string) => string | undefined): string | null {
  const direct = header('X-Auth-Token')?.trim();
  if (direct) return direct;
  const authorization = header('Authorization');
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  return match ? match[1] : null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A cookie-authenticated state-changing call must come from a console page of this origin and carry the
 * session's CSRF token (`X-CSRF-Token`): the same rule as every browser route, plus a secret a cross-site
 * page cannot read.
 */
function checkConsoleRequest(c: Context<AppEnv>, csrfToken: string): void {
  if (SAFE_METHODS.has(c.req.method)) return;
  const origin = c.req.header('Origin');
  const site = c.req.header('Sec-Fetch-Site');
  const own = new URL(c.req.url).origin;
  if ((origin && origin !== own) || (site && site !== 'same-origin' && site !== 'none')) {
    throw forbidden('Console requests must come from the console itself.');
  }
  const presented = c.req.header('X-CSRF-Token') ?? '';
  if (!timingSafeEqualString(presented, csrfToken)) {
    throw forbidden('This console request is missing its CSRF token (X-CSRF-Token); reload the page and try again.');
  }
}

export function authenticate(options: AuthOptions = {}): MiddlewareHandler<AppEnv> {
  const interval = options.lastUsedIntervalMs ?? 60_000;
  const failures = failedAuthentications(options.failures);
  return async function authenticateMiddleware(c, next) {
    const token = presentedToken((name) => c.req.header(name));
    const mcp = options.audience === 'mcp' || mcpCallOf(c.req.raw) !== undefined;
    try {
      await authenticateRequest(c, next, token, { audience: mcp ? 'mcp' : (options.audience ?? 'api'), mcp });
    } catch (error) {
      // Every 401 carries the Bearer challenge, `invalid_token` when a token was refused (RFC 6750 §3).
      throw withBearerChallenge(error, token !== null, options.resourceMetadata?.(c));
    }
  };

  async function authenticateRequest(c: Context<AppEnv>, next: () => Promise<void>, token: string | null, reach: Reach): Promise<void> {
    if (!token && reach.mcp) throw unauthorized('Provide an OAuth access token or an API token as Authorization: Bearer <token>.');
    if (!token) {
      const cookie = readSessionCookie(c);
      if (cookie) return authenticateSession(c, next, cookie);
      throw unauthorized('Provide an API token in the X-Auth-Token header or as Authorization: Bearer <token>.');
    }
    if (token.startsWith(PARTNER_KEY_PREFIX)) {
      throw unauthorized('Partner keys are only accepted on /api/partner/v1; use a tenant API token here.');
    }

    if (token.startsWith(OAUTH_ACCESS_TOKEN_PREFIX)) return authenticateOAuth(c, next, token, { interval, failures, reach });
    if (isEmbedTokenShape(token)) return authenticateEmbed(c, next, token, failures);

    // Unauthenticated traffic reaches D1 only in our token's shape, and only from addresses that have
    // not failed too often (issue 21 › 6).
    if (!isApiTokenFormat(token)) throw unauthorized('The API token is not valid.');
    failures.refuseIfOverLimit(c);

    const db = c.var.control;
    const found = await findPrincipalByTokenHash(db, await sha256Hex(token));
    if (!found) throw await failures.count(c, unauthorized('The API token is not valid.'));
    const now = Date.now();
    if (found.token.revokedAt) throw unauthorized('The API token has been revoked.');
    if (found.token.expiresAt && Date.parse(found.token.expiresAt) <= now) {
      throw unauthorized(`The API token expired at ${found.token.expiresAt}.`);
    }
    if (found.user.archivedAt) throw unauthorized('The user this API token belongs to has been removed from the account.');
    if (found.account.suspendedAt) {
      throw forbidden('This account is suspended; its API tokens are refused until the operator lifts the suspension.');
    }
    const ip = clientIp(c.req.raw);
    if (!ipAllowed(ip, found.token.allowedIps)) {
      throw forbidden(`Requests from ${ip ?? 'an unknown address'} are not allowed for this API token.`);
    }

    const lastUsed = found.token.lastUsedAt ? Date.parse(found.token.lastUsedAt) : 0;
    if (now - lastUsed > interval) {
      const at = new Date(now).toISOString();
      c.executionCtx.waitUntil(touchLastUsed(db, found.token.id, at, new Date(now - interval).toISOString()));
    }
    const credential: Credential = {
      kind: 'api_token',
      id: found.token.id,
      scopes: found.token.scopes,
      allowedIps: found.token.allowedIps,
      expiresAt: found.token.expiresAt,
      key: `token:${found.token.id}`,
      actor: reach.mcp ? `mcp:${found.token.tokenPrefix}` : found.token.tokenPrefix,
      accessTokenId: found.token.id,
    };
    c.set('principal', { account: found.account, user: found.user, credential, hasWebhooks: found.hasWebhooks });
    useAccountScope(c, found.account);
    await next();
  }
}

async function authenticateSession(c: Context<AppEnv>, next: () => Promise<void>, cookie: string): Promise<void> {
  const found = await findSession(c.var.control, cookie, { waitUntil: (work) => c.executionCtx.waitUntil(work) });
  if ('miss' in found) {
    if (found.miss === 'suspended')
      throw forbidden('This account is suspended; sign-in is refused until the operator lifts the suspension.');
    throw unauthorized(
      found.miss === 'idle'
        ? 'Your session ended after 30 minutes without activity; sign in again.'
        : 'Sign in again: this session is no longer valid.',
    );
  }
  if (found.session.stage !== 'full') throw unauthorized('Finish signing in with your second factor first.');
  checkConsoleRequest(c, found.session.csrfToken);
  if (mustEnrolMfa(found)) {
    throw new ApiError(
      403,
      'This account requires two-factor authentication: enrol an authenticator app at /settings/mfa before anything else.',
    );
  }
  const credential: Credential = {
    kind: 'session',
    id: found.session.id,
    scopes: [],
    allowedIps: [],
    expiresAt: null,
    key: `session:${found.session.id}`,
    actor: found.user.email,
    accessTokenId: null,
  };
  c.set('principal', { account: found.account, user: found.user, credential, hasWebhooks: found.account.hasWebhooks });
  useAccountScope(c, found.account);
  await next();
}

/**
 * An OAuth access token: one indexed control lookup joined to its grant, so a revoked grant (by the user,
 * by refresh-token reuse, or with its client) stops working on the next request.
 */
async function authenticateOAuth(
  c: Context<AppEnv>,
  next: () => Promise<void>,
  token: string,
  options: { interval: number; failures: ReturnType<typeof failedAuthentications>; reach: Reach },
): Promise<void> {
  const { failures, interval, reach } = options;
  if (!isOAuthAccessTokenFormat(token)) throw unauthorized('The OAuth access token is not valid.');
  failures.refuseIfOverLimit(c);
  const db = c.var.control;
  const found = await findOAuthToken(db, await sha256Hex(token));
  // An OAuth token always holds at least one scope; an empty list would read as "every scope" (grants()).
  if (!found || found.token.kind !== 'access' || found.token.scopes.length === 0) {
    throw await failures.count(c, unauthorized('The OAuth access token is not valid.'));
  }
  const now = Date.now();
  if (found.grant.revokedAt) throw unauthorized('This application’s access has been revoked; authorize it again.');
  if (found.client.deletedAt) throw unauthorized('This OAuth application has been deleted.');
  if (found.token.expiresAt && Date.parse(found.token.expiresAt) <= now) {
    throw unauthorized(`The OAuth access token expired at ${found.token.expiresAt}; use the refresh token for a new one.`);
  }
  // RFC 8707: a token serves only the resources it was issued for (decisions.md › MCP server).
  if (!found.token.audiences.includes(reach.audience)) {
    throw unauthorized(
      reach.audience === 'mcp'
        ? 'This OAuth access token was issued for the REST API, not the MCP server; authorize again with resource=<origin>/mcp.'
        : 'This OAuth access token was issued for the MCP server, not the REST API; authorize again with resource=<origin>/api.',
    );
  }
  if (found.user.archivedAt) throw unauthorized('The user who authorized this application has been removed from the account.');
  if (found.account.suspendedAt) {
    throw forbidden('This account is suspended; its credentials are refused until the operator lifts the suspension.');
  }
  const lastUsed = found.grant.lastUsedAt ? Date.parse(found.grant.lastUsedAt) : 0;
  if (now - lastUsed > interval) {
    c.executionCtx.waitUntil(touchOAuthGrant(db, found.grant.id, new Date(now).toISOString(), new Date(now - interval).toISOString()));
  }
  const credential: Credential = {
    kind: 'oauth',
    id: found.grant.id,
    scopes: found.token.scopes,
    allowedIps: [],
    expiresAt: found.token.expiresAt,
    key: `oauth:${found.grant.id}`,
    actor: `${reach.mcp ? 'mcp' : 'oauth'}:${found.client.name}`.slice(0, 120),
    accessTokenId: null,
  };
  c.set('principal', { account: found.account, user: found.user, credential, hasWebhooks: found.account.hasWebhooks });
  useAccountScope(c, found.account);
  await next();
}

/**
 * An embed JWT (docs/embedding.md): one control lookup (its account with the key, and the user who minted
 * it), then the signature under the account's current or previous key. It works only on the routes of
 * its kind (embed-access.ts) and yields a principal that can reach nothing beyond its one resource.
 */
async function authenticateEmbed(
  c: Context<AppEnv>,
  next: () => Promise<void>,
  token: string,
  failures: ReturnType<typeof failedAuthentications>,
): Promise<void> {
  failures.refuseIfOverLimit(c);
  const addressee = unverifiedAddressee(token);
  const found = addressee && (await findEmbedPrincipal(c.var.control, addressee.accountId, addressee.userId));
  if (!found) throw await failures.count(c, unauthorized('The embed token is not valid.'));
  let grant;
  try {
    grant = await verifyEmbedToken(token, found.account.id, await verificationKeys(c.env.ENCRYPTION_KEY, found.account));
  } catch (error) {
    if (error instanceof EmbedTokenRefused) throw await failures.count(c, unauthorized(error.message));
    throw error;
  }
  if (!embedRouteAllowed(grant, c.req.method, new URL(c.req.url).pathname)) {
    throw unauthorized(
      grant.resourceType === 'template'
        ? 'A builder embed token is accepted only on /api/embed/template/{id} and its template’s routes; use an API token here.'
        : 'A signing form embed token is accepted only on /api/embed/submission/{id}; use an API token here.',
    );
  }
  if (found.user.archivedAt) throw unauthorized('The user who minted this embed token has been removed from the account.');
  if (found.account.suspendedAt) {
    throw forbidden('This account is suspended; its credentials are refused until the operator lifts the suspension.');
  }
  const credential: Credential = {
    kind: 'embed',
    id: 0,
    scopes: embedScopes(grant),
    allowedIps: [],
    expiresAt: grant.expiresAt,
    key: `embed:${grant.jti}`,
    actor: `embed:${grant.jti}`,
    accessTokenId: null,
  };
  c.set('embed', grant);
  c.set('principal', { account: found.account, user: found.user, credential, hasWebhooks: found.account.hasWebhooks });
  useAccountScope(c, found.account);
  await next();
}
