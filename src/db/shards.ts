// Which D1 database holds what (docs/scaling.md): the control database (accounts, users, tokens, partner
// and billing state — what is looked up before an account is known) and the tenant shards SHARD_0 …
// SHARD_<n-1> (everything an account owns). An account lives on exactly one shard (`accounts.shard`).
import type { Bindings, DatabaseBindings } from '../env';
import { stampedQueue } from '../lib/shard-queues';
import type { Account } from './schema/index';
import { createDb, type Db } from './client';

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

function shardDb(env: DatabaseBindings, shard: number): Db {
  return createDb(shardBinding(env, shard));
}

type QueueBinding = 'MESSAGES_QUEUE' | 'WEBHOOK_QUEUE' | 'SEALING_QUEUE';

/** The bindings work in a scope reads: everything but the queue producers, which it reaches through `queues`. */
export type ScopeBindings = Omit<Bindings, QueueBinding>;

/**
 * The queue producers of one shard: every message they send carries the shard (src/lib/shard-queues.ts),
 * so its consumer reads that shard. They are the only way to enqueue: the raw bindings are read here only.
 */
export type ShardQueues = {
  messages: Bindings['MESSAGES_QUEUE'];
  webhooks: Bindings['WEBHOOK_QUEUE'];
  /** The document queue (sealing jobs and thumbnail batches); absent where it is not bound. */
  sealing: Bindings['SEALING_QUEUE'];
};

/**
 * Everything work on one shard needs, built once: the shard's database, the control database for
 * account rows, the shard's queue producers, and the other bindings. Queue consumers and cron steps get
 * one per shard (below); a request gets an AccountScope in authentication (src/middleware/databases).
 */
export type ShardScope = { shard: number; db: Db; control: Db; queues: ShardQueues; env: ScopeBindings };

/** A ShardScope for the account it acts for: what a request reaches once authentication knows the account. */
export type AccountScope = ShardScope & { account: Account };

export function shardScope(env: Bindings, shard: number): ShardScope {
  return {
    shard,
    db: shardDb(env, shard),
    control: controlDb(env),
    queues: {
      messages: stampedQueue(env.MESSAGES_QUEUE, shard),
      webhooks: stampedQueue(env.WEBHOOK_QUEUE, shard),
      sealing: env.SEALING_QUEUE && stampedQueue(env.SEALING_QUEUE, shard),
    },
    env,
  };
}

/** The scope of the account's shard, with the account. */
export function accountScope(env: Bindings, account: Account): AccountScope {
  return { ...shardScope(env, account.shard), account };
}

/** One scope per bound shard, SHARD_0 first. */
export function shardScopes(env: Bindings): ShardScope[] {
  return shardBindings(env).map((_, shard) => shardScope(env, shard));
}
