// Request limits of the API (spec › Limits) and the development-only switches bench/limits uses.
import type { Bindings } from '../env';
import { isDevelopment } from './environment';

/** spec › Limits: 120 requests per rolling 60 s per API token; 100 per minute per partner key. */
export const TENANT_RATE_LIMIT = 120;
export const PARTNER_RATE_LIMIT = 100;
export const RATE_WINDOW_MS = 60_000;

/**
 * Failed authentications (unknown token, wrong partner key) per client address and rolling 60 s;
 * past it the address gets 429 before any lookup (docs/limits.md › Failed authentication).
 */
export const AUTH_FAILURE_LIMIT = 30;

type LimitSwitches = Pick<Bindings, 'ENVIRONMENT' | 'LIMITS_DISABLED' | 'RATE_LIMIT_PER_MINUTE'>;

/** `LIMITS_DISABLED=true` turns rate limiting and idempotency off, and only in development. */
export function limitsDisabled(env: LimitSwitches): boolean {
  return isDevelopment(env) && env.LIMITS_DISABLED === 'true';
}

/** The per-token limit: 120, or `RATE_LIMIT_PER_MINUTE` in development (a benchmark's load). */
export function tenantRateLimit(env: LimitSwitches): number {
  if (!isDevelopment(env) || !env.RATE_LIMIT_PER_MINUTE) return TENANT_RATE_LIMIT;
  const override = Number(env.RATE_LIMIT_PER_MINUTE);
  return Number.isInteger(override) && override > 0 ? override : TENANT_RATE_LIMIT;
}
