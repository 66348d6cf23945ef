// Moves an account's rows to another tenant shard (POST /api/partner/v1/accounts/{id}/move;
// docs/architecture.md › Moving an account). Every step can run again after a crash: calling the endpoint
// again with the same shard resumes the move, and the control row (`accounts.moving_to_shard`) is its state.
import type { Db } from '../db/client';
import { getAccount } from '../db/queries/accounts';
import {
  advanceFence,
  allocateIdBlock,
  claimMove,
  renewMoveLease,
  countRows,
  deletePage,
  fenceOf,
  flipShard,
  insertRows,
  raiseSequences,
  readPage,
  removeFence,
  setFence,
} from '../db/queries/account-move';
import type { Account } from '../db/schema/index';
import { shardCount, shardScope } from '../db/shards';
import type { Bindings } from '../env';
import { tenantTables } from '../db/tenant-tables';
import { ApiError, notFound, unprocessable } from '../lib/errors';

export type MoveContext = { env: Bindings; control: Db };

/**
 * How long a call holds a move without renewing its lease (renewed after every page it copies). Another
 * call for the same move is refused (409) while the lease holds and takes the move over once it lapsed,
 * so two calls never copy or delete at the same time, and a crashed move can be resumed.
 */
export const MOVE_LEASE_MS = 60_000;

/** The lease one call holds on a move: renewed as it goes, checked before every step that writes. */
export class MoveLease {
  readonly token = crypto.randomUUID();
  constructor(
    private readonly control: Db,
    private readonly accountId: number,
    private readonly target: number,
  ) {}

  expiry(): string {
    return new Date(Date.now() + MOVE_LEASE_MS).toISOString();
  }

  async renew(): Promise<void> {
    if (!(await renewMoveLease(this.control, this.accountId, this.token, this.expiry()))) throw runningMove(this.target);
  }
}

function runningMove(shard: number): ApiError {
  return new ApiError(409, `A move of this account to shard ${shard} is running; send {"shard": ${shard}} to finish it.`);
}

/** (a) Control: the account is moving to `target`; its writes answer 409 until the pointer flips. */
export async function beginMove({ control }: MoveContext, accountId: number, target: number, lease: MoveLease): Promise<Account> {
  const claimed = await claimMove(control, accountId, target, lease.token, lease.expiry());
  if (claimed) return claimed;
  const account = await getAccount(control, accountId);
  if (!account) throw notFound('Account');
  throw runningMove(account.movingToShard!);
}

/** (b) Source: the fence; every write of the account committed before it is seen by the copy. */
export async function fenceSource({ env }: MoveContext, accountId: number, source: number): Promise<void> {
  await setFence(shardScope(env, source).db, accountId, 'moving');
}

/**
 * (c) Target: what an earlier attempt (or an earlier stay of the account there) left is deleted, and the
 * shard takes a fresh id block, so the account's rows created there after the move sort after the rows
 * it brings and never meet the ids the source hands out next.
 */
export async function prepareTarget({ env, control }: MoveContext, accountId: number, target: number): Promise<void> {
  const db = shardScope(env, target).db;
  await removeFence(db, accountId);
  for (const table of [...tenantTables()].reverse()) {
    while ((await deletePage(db, table, accountId, null)) > 0);
  }
  await raiseSequences(db, await allocateIdBlock(control, target, `move of account ${accountId}`));
}

/** (d) Copies every tenant table parent-first in pages by id, ids kept, then checks the counts agree. */
export async function copyRows(
  { env }: MoveContext,
  accountId: number,
  source: number,
  target: number,
  lease: MoveLease,
  tables = tenantTables(),
): Promise<void> {
  const from = shardScope(env, source).db;
  const to = shardScope(env, target).db;
  for (const table of tables) {
    for (let after = 0; ; ) {
      const rows = await readPage(from, table, accountId, after);
      if (rows.length === 0) break;
      await lease.renew();
      await insertRows(to, table, rows);
      after = Number(rows[rows.length - 1].id);
    }
  }
}

async function verifyCopy({ env }: MoveContext, accountId: number, source: number, target: number): Promise<void> {
  const tables = tenantTables();
  const [before, after] = await Promise.all([
    countRows(shardScope(env, source).db, tables, accountId),
    countRows(shardScope(env, target).db, tables, accountId),
  ]);
  const differing = tables.filter((table) => before.get(table.name) !== after.get(table.name));
  if (differing.length) {
    // The fence makes the source still; a difference is a fault, and the pointer stays on the source.
    throw new Error(
      `Move of account ${accountId} to shard ${target}: row counts differ in ${differing.map((t) => `${t.name} (${before.get(t.name)} → ${after.get(t.name)})`).join(', ')}.`,
    );
  }
}

/**
 * How long the source keeps a moved account's rows after the flip: a request that read the old pointer
 * just before it still finds them (its writes are fenced: 409), instead of a 404 for rows that moved.
 */
export const MOVED_ROWS_GRACE_MS = 60_000;

/** (f) Source, at the flip: the rows stay for the grace period, the fence says `moved`. */
export async function markSourceMoved({ env }: MoveContext, accountId: number, source: number): Promise<void> {
  await setFence(shardScope(env, source).db, accountId, 'moved');
}

/**
 * (f) Source, after the grace period (the cron, src/scheduled/moved-accounts.ts): the account's rows go,
 * children first, in pages; the fence stays as `deleted`, so a request that read the old pointer long
 * ago is refused (409) instead of writing where nobody reads.
 */
export async function deleteSourceRows(db: Db, accountId: number): Promise<void> {
  for (const table of [...tenantTables()].reverse()) {
    while ((await deletePage(db, table, accountId, 'moved')) > 0);
  }
  // Only if the fence still says `moved`: a move back to this shard removes it before copying.
  await advanceFence(db, accountId, 'moved', 'deleted');
}

/** Shards other than the account's own where a crash after the flip left the fence at `moving`. */
async function unfinishedSources(ctx: MoveContext, account: Account): Promise<number[]> {
  const shards = Array.from({ length: shardCount(ctx.env) }, (_, shard) => shard).filter((shard) => shard !== account.shard);
  const fences = await Promise.all(shards.map((shard) => fenceOf(shardScope(ctx.env, shard).db, account.id)));
  return shards.filter((_, i) => fences[i] === 'moving');
}

/**
 * Moves the account to shard `target` and returns it with its new pointer. Writes of the account answer
 * 409 with Retry-After meanwhile; reads keep answering from the source until the flip; R2 objects stay
 * where they are (their keys do not name a shard). The source's copy is deleted by the cron after
 * MOVED_ROWS_GRACE_MS. Sending the shard the account already lives on
 * finishes a move whose cleanup was interrupted, and is refused (422) when there is none.
 */
export async function moveAccount(ctx: MoveContext, accountId: number, target: number): Promise<Account> {
  const shards = shardCount(ctx.env);
  if (target >= shards) {
    throw unprocessable(`Shard ${target} is not bound; this deployment has shards 0 to ${shards - 1} (SHARD_<n> in wrangler.toml).`);
  }
  const account = await getAccount(ctx.control, accountId);
  if (!account) throw notFound('Account');
  if (account.movingToShard !== null && account.movingToShard !== target) throw runningMove(account.movingToShard);
  if (account.movingToShard === null && account.shard === target) {
    const unfinished = await unfinishedSources(ctx, account);
    if (unfinished.length === 0) throw unprocessable(`The account already lives on shard ${target}.`);
    for (const shard of unfinished) await markSourceMoved(ctx, accountId, shard);
    return account;
  }

  const source = account.shard;
  const lease = new MoveLease(ctx.control, accountId, target);
  await beginMove(ctx, accountId, target, lease);
  await fenceSource(ctx, accountId, source);
  await lease.renew();
  await prepareTarget(ctx, accountId, target);
  await copyRows(ctx, accountId, source, target, lease);
  await verifyCopy(ctx, accountId, source, target);
  // (e) Control: the pointer flips; from here requests read and write on the target.
  const moved = await flipShard(ctx.control, accountId, target, lease.token);
  if (!moved) throw runningMove(target);
  await markSourceMoved(ctx, accountId, source);
  return moved;
}
