// A copy of wrangler.toml with a chosen number of tenant shards (SHARD_0 … SHARD_<n-1>), written to a
// directory of its own: the e2e test that adds a shard and bench/shards run wrangler with it. Paths in
// the copy are absolute, so the Worker (built by the repository's custom build), its assets and the
// migrations are the repository's own, while
// wrangler reads `.dev.vars` next to the copy (written there by `setup.mjs --config`).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './d1-databases.mjs';

const SHARD_BLOCK = /\n\[\[d1_databases\]\]\nbinding = "SHARD_\d+"\n(?:[a-z_]+ = .*\n)*/g;

/**
 * Writes `<dir>/wrangler.toml` declaring `shards` shards; returns its path. `withoutConsumers` names
 * queues whose consumer the copy leaves out (bench/shards keeps the sealing job off the machine it
 * measures: bench/seal measures that).
 */
export function writeShardedConfig(dir, shards, { withoutConsumers = [] } = {}) {
  const source = readFileSync(join(root, 'wrangler.toml'), 'utf8');
  const blocks = Array.from({ length: shards }, (_, n) =>
    [
      '[[d1_databases]]',
      `binding = "SHARD_${n}"`,
      `database_name = "signing-service-shard-${n}"`,
      `database_id = "00000000-0000-4000-8000-${String(10 + n).padStart(12, '0')}"`,
      `migrations_dir = "${join(root, 'migrations')}"`,
    ].join('\n'),
  );
  const consumers = (toml) =>
    withoutConsumers.reduce(
      (text, queue) => text.replace(new RegExp(`\\[\\[queues\\.consumers\\]\\]\\nqueue = "${queue}"\\n(?:[a-z_]+ = .*\\n)*`), ''),
      toml,
    );
  const toml = `${consumers(source)
    .replace(SHARD_BLOCK, '\n')
    .replace(/^main = "(.*)"$/m, (_, main) => `main = "${join(root, main)}"`)
    .replace(/^command = "node (.*)"$/m, (_, script) => `command = "node ${join(root, script)}"`)
    .replace(/^watch_dir = \[(.*)\]$/m, (_, dirs) => `watch_dir = [${dirs.replace(/"([^"]+)"/g, (_m, d) => `"${join(root, d)}"`)}]`)
    .replace(/^directory = "\.\/public"$/m, `directory = "${join(root, 'public')}"`)
    .replace(/^migrations_dir = "migrations"$/gm, `migrations_dir = "${join(root, 'migrations')}"`)}\n${blocks.join('\n\n')}\n`;
  const file = join(dir, 'wrangler.toml');
  writeFileSync(file, toml);
  return file;
}
