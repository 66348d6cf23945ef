#!/usr/bin/env node
// Every D1 database a wrangler config declares — the control database and each tenant shard — brought
// to the current schema: the migrations, then each shard's id block (src/db/id-ranges.ts). One place
// for `npm run setup` (local), `npm run db:migrate` (remote, for deploys), the e2e tests and the
// benchmarks. Both steps are idempotent. docs/scaling.md › Adding a shard.
//
//   node scripts/d1-databases.mjs [--remote] [--config <wrangler.toml>] [--persist-to <dir>]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { idBlockStatements } from '../src/db/id-ranges.ts';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Where wrangler's D1 commands act: `config` (default: the repository's wrangler.toml), and either the
 * local state in `persistTo` (default: wrangler's own, .wrangler/state next to the config) or, with
 * `remote`, the deployed databases.
 */
export function d1Target({ config, persistTo, remote = false } = {}) {
  return { config: resolve(config ?? join(root, 'wrangler.toml')), persistTo: persistTo && resolve(persistTo), remote };
}

/** The shard numbers a config declares (`binding = "SHARD_<n>"`), in order. */
export function shardNumbers(config) {
  const toml = readFileSync(config, 'utf8');
  return [...toml.matchAll(/^binding\s*=\s*"SHARD_(\d+)"/gm)].map((m) => Number(m[1])).sort((a, b) => a - b);
}

/** Runs `wrangler d1 <args…>` against `target`; returns its stdout, throws with its output on failure. */
export function wranglerD1(target, args) {
  const where = target.remote ? ['--remote'] : ['--local', ...(target.persistTo ? ['--persist-to', target.persistTo] : [])];
  const result = spawnSync(join(root, 'node_modules', '.bin', 'wrangler'), ['d1', ...args, '--config', target.config, ...where], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true', NO_COLOR: '1' },
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) {
    throw new Error(`wrangler d1 ${args.slice(0, 3).join(' ')} failed:\n${result.stdout ?? ''}${result.stderr ?? ''}`);
  }
  return result.stdout;
}

/** Applies the migrations to CONTROL_DB and every SHARD_n, then gives each shard its id block. */
export function migrateDatabases(target) {
  const shards = shardNumbers(target.config);
  if (shards.length === 0) throw new Error(`${target.config} declares no SHARD_0 (docs/scaling.md › Adding a shard).`);
  for (const database of ['CONTROL_DB', ...shards.map((n) => `SHARD_${n}`)]) {
    wranglerD1(target, ['migrations', 'apply', database]);
  }
  for (const shard of shards) {
    wranglerD1(target, ['execute', `SHARD_${shard}`, `--command=${idBlockStatements(shard).join('; ')}`]);
  }
  return shards;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { remote: { type: 'boolean' }, config: { type: 'string' }, 'persist-to': { type: 'string' } } });
  const target = d1Target({ config: values.config, persistTo: values['persist-to'], remote: values.remote });
  const shards = migrateDatabases(target);
  console.log(
    `Applied D1 migrations and id blocks (${target.remote ? 'remote' : 'local'}): CONTROL_DB and ${shards.map((n) => `SHARD_${n}`).join(', ')}`,
  );
}
