// The last step of an account move (src/services/account-move.ts): on the shard an account left, its
// rows are deleted once the grace period after the flip is over. A few accounts per run and shard; the
// fence stays `moved` until every row is gone, so a run cut short is finished by the next one.
import { movedAccountsDue } from '../db/queries/account-move';
import type { ShardScope } from '../db/shards';
import { deleteSourceRows, MOVED_ROWS_GRACE_MS } from '../services/account-move';

/** Accounts whose old rows one run deletes per shard. */
export const MOVED_ACCOUNTS_PER_RUN = 2;

export async function deleteMovedAccountRows({ db }: ShardScope, now: number): Promise<number[]> {
  const due = await movedAccountsDue(db, new Date(now - MOVED_ROWS_GRACE_MS).toISOString(), MOVED_ACCOUNTS_PER_RUN);
  for (const accountId of due) await deleteSourceRows(db, accountId);
  return due;
}
