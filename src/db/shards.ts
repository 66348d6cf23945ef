// Which D1 database holds what (docs/scaling.md): the control database (accounts, users, tokens, partner
// and billing state — what is looked up before an account is known) and the tenant shards SHARD_0 …
// SHARD_<n-1> (everything an account owns). An account lives on exactly one shard (`accounts.shard`).
import type { Bindings } from '../env';
import { shardEnv } from '../lib/shard-queues';
import { createDb, type Db } from './client';

/** The bindings this module reads: the control database and the numbered shards. */
export type DatabaseBindings = { CONTROL_DB: D1Database } & Partial<Record<`SHARD_${number}`, D1Database>>;

export function controlDb(env: DatabaseBindings): Db {
  return createDb(env.CONTROL_DB);
}

/** The shard bindings in order, SHARD_0 first; numbering stops at the first gap. */
export function shardBindings(env: DatabaseBindings): D1Database[] {
  const bound: D1Database[] = [];
  for (let shard = 0; ; shard += 1) {
    const binding = env[`SHARD_${shard}`];
    if (!binding) break;
    bound.push(binding);
  }
  if (bound.length === 0) throw new Error('No tenant shard is bound: declare SHARD_0 in wrangler.toml (docs/scaling.md).');
  return bound;
}

export function shardCount(env: DatabaseBindings): number {
  return shardBindings(env).length;
}

export function shardBinding(env: DatabaseBindings, shard: number): D1Database {
  const binding = Number.isInteger(shard) && shard >= 0 ? env[`SHARD_${shard}`] : undefined;
  if (!binding) throw new Error(`Shard ${shard} is not bound (SHARD_${shard} in wrangler.toml).`);
  return binding;
}

export function shardDb(env: DatabaseBindings, shard: number): Db {
  return createDb(shardBinding(env, shard));
}

/** The shard database of an account row (or anything carrying its shard). */
export function accountDb(env: DatabaseBindings, account: { shard: number }): Db {
  return shardDb(env, account.shard);
}

/**
 * Everything background work on one shard needs (cron steps, queue consumers): the shard's database, the
 * control database for account rows, and bindings whose queue producers stamp the shard.
 */
export type ShardScope = { shard: number; db: Db; control: Db; env: Bindings };

export function shardScope(env: Bindings, shard: number): ShardScope {
  return { shard, db: shardDb(env, shard), control: controlDb(env), env: shardEnv(env, shard) };
}

/** One scope per bound shard, SHARD_0 first. */
export function shardScopes(env: Bindings): ShardScope[] {
  return shardBindings(env).map((_, shard) => shardScope(env, shard));
}
