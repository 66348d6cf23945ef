/** Writes `<dir>/wrangler.toml`: the repository's wrangler.toml with `shards` tenant shards. */
export function writeShardedConfig(dir: string, shards: number): string;
