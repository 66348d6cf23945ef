// The retention step of the cron (issue 33 › 5): erases the shard's submissions whose retention period
// has run out, and finishes erasures a crash interrupted. Bounded: at most PURGE_BATCH submissions a run
// per shard (each lists and deletes its R2 files); a backlog is worked off over the following minutes.
import { listDuePurges } from '../../db/queries/retention';
import type { ShardScope } from '../../db/shards';
import { eraseSubmission, type ErasureOutcome } from './erase-submission';
import { loadScope } from './submission-scope';

/** Submissions one run erases per shard: ~4 R2 calls and one batch each. */
export const PURGE_BATCH = 10;
/** A claimed erasure untouched this long is taken to have crashed, and finished here. */
export const STALE_ERASURE_MS = 5 * 60_000;

export async function purgeExpiredSubmissions(
  { db, env }: Pick<ShardScope, 'db' | 'env'>,
  now = Date.now(),
  limit = PURGE_BATCH,
): Promise<Record<ErasureOutcome, number>> {
  const due = await listDuePurges(db, new Date(now).toISOString(), new Date(now - STALE_ERASURE_MS).toISOString(), limit);
  const counts: Record<ErasureOutcome, number> = { erased: 0, held: 0, 'already-erased': 0 };
  for (const submission of due) {
    try {
      counts[await eraseSubmission(db, env.FILES, await loadScope(db, submission), { reason: 'retention' })]++;
    } catch (error) {
      // One that fails is tried again next minute; the others go on.
      console.error(`erasing submission ${submission.id}:`, error);
    }
  }
  return counts;
}
