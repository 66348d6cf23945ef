// Authenticates tenant API requests by API token (X-Auth-Token or Authorization: Bearer).
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../env';
import { useAccountShard } from '../databases';
import { findPrincipalByTokenHash, touchLastUsed } from '../../db/queries/access-tokens';
import { sha256Hex } from '../../lib/crypto';
import { forbidden, unauthorized } from '../../lib/errors';
import { ipAllowed } from '../../lib/ip';
import { clientIp } from '../../lib/request';
import { isApiTokenFormat, PARTNER_KEY_PREFIX } from '../../lib/tokens';
import { failedAuthentications, type FailedAuthenticationOptions } from './failed-authentications';

export type AuthOptions = {
  /** How stale `last_used_at` may get before a request refreshes it (one write per interval). */
  lastUsedIntervalMs?: number;
  /** The per-address limit on failed authentications (docs/limits.md › Failed authentication). */
  failures?: FailedAuthenticationOptions;
};

export function presentedToken(header: (name: string) => string | undefined): string | null {
  const direct = header('X-Auth-Token')?.trim();
  if (direct) return direct;
  const authorization = header('Authorization');
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  return match ? match[1] : null;
}

export function authenticate(options: AuthOptions = {}): MiddlewareHandler<AppEnv> {
  const interval = options.lastUsedIntervalMs ?? 60_000;
  const failures = failedAuthentications(options.failures);
  return async function authenticateMiddleware(c, next) {
    const token = presentedToken((name) => c.req.header(name));
    if (!token) throw unauthorized('Provide an API token in the X-Auth-Token header or as Authorization: Bearer <token>.');
    if (token.startsWith(PARTNER_KEY_PREFIX)) {
      throw unauthorized('Partner keys are only accepted on /api/partner/v1; use a tenant API token here.');
    }

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
    c.set('principal', found);
    useAccountShard(c, found.account);
    await next();
  };
}
