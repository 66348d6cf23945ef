// The request context's databases (docs/scaling.md): `c.var.control` for every request, and
// `c.var.db` / `c.var.shard` once the account is known. Handlers and services take the database they are
// given; nothing below a route builds its own handle from the bindings.
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../env';
import { controlDb, shardDb } from '../../db/shards';
import { shardEnv } from '../../lib/shard-queues';
import { accountMoving } from '../../lib/errors';
import type { Account } from '../../db/schema/index';

export function controlDatabase(): MiddlewareHandler<AppEnv> {
  return async function controlDatabaseMiddleware(c, next) {
    c.set('control', controlDb(c.env));
    await next();
  };
}

/**
 * Points the request at `shard` (the account it acts for lives there): `c.var.db` is that shard's
 * database, and the queue producers in `c.env` stamp it on every message (src/lib/shard-queues.ts).
 */
export function useShard(c: Context<AppEnv>, shard: number): void {
  c.set('shard', shard);
  c.set('db', shardDb(c.env, shard));
  c.env = shardEnv(c.env, shard);
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Points the request at the account's shard, refusing a write up front (409 with Retry-After) while the
 * account moves to another shard: its rows are being copied, and the source shard's fence would refuse
 * the write anyway (src/db/schema/account-fences.ts). Reads keep going to the source until the move flips
 * the pointer.
 */
export function useAccountShard(c: Context<AppEnv>, account: Pick<Account, 'shard' | 'movingToShard'>): void {
  if (account.movingToShard !== null && MUTATING.has(c.req.method)) throw accountMoving();
  useShard(c, account.shard);
}
