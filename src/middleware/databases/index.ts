// The request context's databases (docs/scaling.md): `c.var.control` for every request, and
// `c.var.scope` (the account, its shard's database and queue producers) once the account is known.
// Handlers and services take the scope they are given; nothing below a route builds its own from the bindings.
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../app-env';
import { accountScope, controlDb } from '../../db/shards';
import { withD1Observers } from '../../db/observed-d1';
import { accountMoving } from '../../lib/errors';
import type { Account } from '../../db/schema/index';

/** First on every request: the control database, and the request's own D1 observers (src/db/observed-d1.ts). */
export function controlDatabase(): MiddlewareHandler<AppEnv> {
  return async function controlDatabaseMiddleware(c, next) {
    c.set('control', controlDb(c.env));
    await withD1Observers(next);
  };
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Builds the request's AccountScope for the account it acts for, refusing a write up front (409 with
 * Retry-After) while the account moves to another shard: its rows are being copied, and the source
 * shard's fence would refuse the write anyway (src/db/schema/account-fences.ts). Reads keep going to the
 * source until the move flips the pointer.
 */
export function useAccountScope(c: Context<AppEnv>, account: Account): void {
  if (account.movingToShard !== null && MUTATING.has(c.req.method)) throw accountMoving();
  c.set('scope', accountScope(c.env, account));
}
