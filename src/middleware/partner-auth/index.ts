// Authenticates the partner control plane by operator key (decisions.md › Bootstrap › Partner control plane).
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../app-env';
import { sha256Hex } from '../../lib/crypto';
import { unauthorized } from '../../lib/errors';
import { PARTNER_KEY_PREFIX } from '../../lib/tokens';
import { presentedToken } from '../auth';
import { failedAuthentications, type FailedAuthenticationOptions } from '../auth/failed-authentications';

/** `PARTNER_API_KEYS` is comma-separated; entries without the `ptk_` prefix are ignored. */
export function configuredPartnerKeys(secret: string | undefined): string[] {
  return (secret ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key.startsWith(PARTNER_KEY_PREFIX) && key.length > PARTNER_KEY_PREFIX.length);
}

/**
 * Compares SHA-256 digests in constant time against every configured key, without stopping at a
 * match: neither the position of the matching key nor the length of any key shows in the timing.
 */
export async function matchPartnerKey(presented: string, keys: readonly string[]): Promise<boolean> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(presented)));
  let matched = false;
  for (const key of keys) {
    const expected = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key)));
    matched = crypto.subtle.timingSafeEqual(digest, expected) || matched;
  }
  return matched;
}

/**
 * How a partner key is named in tenant audit trails: `ptk_` and up to 8 more characters, like a token
 * prefix, but never more than a third of what follows `ptk_`, so a short key is not shown whole.
 */
export function partnerKeyPrefix(key: string): string {
  const secret = key.length - PARTNER_KEY_PREFIX.length;
  return key.slice(0, PARTNER_KEY_PREFIX.length + Math.min(8, Math.floor(secret / 3)));
}

export type PartnerAuthOptions = {
  /** The per-address limit on failed authentications, shared with tenant tokens (docs/limits.md). */
  failures?: FailedAuthenticationOptions;
};

export function authenticatePartner(options: PartnerAuthOptions = {}): MiddlewareHandler<AppEnv> {
  const failures = failedAuthentications(options.failures);
  return async function authenticatePartnerMiddleware(c, next) {
    const key = presentedToken((name) => c.req.header(name));
    if (!key) throw unauthorized('Provide a partner key as Authorization: Bearer ptk_….');
    if (!key.startsWith(PARTNER_KEY_PREFIX)) {
      throw unauthorized('Tenant API tokens are not accepted on the partner API; use a partner key (ptk_…).');
    }
    const keys = configuredPartnerKeys(c.env.PARTNER_API_KEYS);
    if (keys.length === 0) throw unauthorized('The partner API is not enabled on this server (no PARTNER_API_KEYS configured).');
    // Guessing partner keys is limited per address like guessing tokens, and counts against the same budget.
    failures.refuseIfOverLimit(c);
    if (!(await matchPartnerKey(key, keys))) throw await failures.count(c, unauthorized('The partner key is not valid.'));
    // The digest, not the key, names the key's rate-limit and idempotency objects.
    c.set('partnerKeyHash', await sha256Hex(key));
    c.set('partnerKeyPrefix', partnerKeyPrefix(key));
    await next();
  };
}
