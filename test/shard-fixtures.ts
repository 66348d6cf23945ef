// Fixtures for tests that reach past the request path into one shard: which shard an account or a row
// lives on, the ShardScope background work on it gets, and the account row services take.
import { env } from 'cloudflare:test';
import { shardScope, type ShardScope } from '../src/db/shards';
import { allShards, shardOf } from './helpers';

/** The number of the shard an account lives on (accounts.shard in the control database). */
export async function shardNumberOf(accountId: number): Promise<number> {
  const row = await env.CONTROL_DB.prepare('SELECT shard FROM accounts WHERE id = ?').bind(accountId).first<{ shard: number }>();
  if (!row) throw new Error(`No account ${accountId}`);
  return row.shard;
}

/** What the cron and the queue consumers hand a job working on this account's shard. */
export async function scopeOf(accountId: number): Promise<ShardScope> {
  return shardScope(env, await shardNumberOf(accountId));
}

/**
 * Runs the sealing job for a completed submission (expecting it to seal) and returns its first sealed
 * file's bytes, as stored.
 */
export async function sealAndRead(accountId: number, submissionId: number): Promise<Uint8Array> {
  const { sealSubmission } = await import('../src/services/sealing/seal-submission');
  const scope = await scopeOf(accountId);
  if ((await sealSubmission(scope.env, scope, submissionId)) !== 'sealed') throw new Error(`Submission ${submissionId} did not seal`);
  const row = await (await shardOf(accountId))
    .prepare('SELECT r2_key FROM submission_documents WHERE submission_id = ? ORDER BY id')
    .bind(submissionId)
    .first<{ r2_key: string }>();
  return new Uint8Array(await (await env.FILES.get(row!.r2_key))!.arrayBuffer());
}

/** The account's control row, as services that name the account take it ({ id, name, … }). */
export async function accountRow(accountId: number): Promise<{ id: number; name: string; shard: number }> {
  const row = await env.CONTROL_DB.prepare('SELECT id, name, shard FROM accounts WHERE id = ?')
    .bind(accountId)
    .first<{ id: number; name: string; shard: number }>();
  if (!row) throw new Error(`No account ${accountId}`);
  return row;
}

/** The number of the shard holding a row of `table` with this id (ids are unique across shards). */
export async function shardNumberOfRow(table: string, id: number): Promise<number> {
  for (const [n, shard] of allShards().entries()) {
    if (await shard.prepare(`SELECT 1 FROM ${table} WHERE id = ?`).bind(id).first()) return n;
  }
  throw new Error(`No ${table} row ${id} on any shard`);
}

/** The account's outbox rows (events) matching a condition, oldest first, read on its shard. */
export async function accountEvents(
  accountId: number,
  where: string,
  ...binds: unknown[]
): Promise<{ id: number; event: string; data: string }[]> {
  const shard = await shardOf(accountId);
  const { results } = await shard
    .prepare(`SELECT * FROM events WHERE account_id = ? AND (${where}) ORDER BY id`)
    .bind(accountId, ...binds)
    .all<{ id: number; event: string; data: string }>();
  return results;
}
