/**
 * Writes `<dir>/wrangler.toml`: the repository's wrangler.toml with `shards` tenant shards, less the
 * consumers of the queues in `withoutConsumers`.
 */
export function writeShardedConfig(dir: string, shards: number, options?: { withoutConsumers?: string[] }): string;
