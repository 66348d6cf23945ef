// Where a new account lives (docs/scaling.md › Placement): the least loaded shard, measured as its
// database's size in bytes (D1 reports it with every query), then by fewest accounts, then lowest number.
import type { Db } from '../db/client';
import { countAccountsByShard } from '../db/queries/accounts';
import { shardBindings } from '../db/shards';
import type { DatabaseBindings } from '../env';

export type ShardLoad = { shard: number; bytes: number; accounts: number };

export async function shardLoads(env: DatabaseBindings, control: Db): Promise<ShardLoad[]> {
  const [counts, sizes] = await Promise.all([
    countAccountsByShard(control),
    Promise.all(shardBindings(env).map(async (binding) => (await binding.prepare('SELECT 1').run()).meta.size_after ?? 0)),
  ]);
  return sizes.map((bytes, shard) => ({ shard, bytes, accounts: counts.get(shard) ?? 0 }));
}

export function leastLoaded(loads: readonly ShardLoad[]): number {
  const [first] = [...loads].sort((a, b) => a.bytes - b.bytes || a.accounts - b.accounts || a.shard - b.shard);
  return first.shard;
}

export async function placeNewAccount(env: DatabaseBindings, control: Db): Promise<number> {
  return leastLoaded(await shardLoads(env, control));
}
