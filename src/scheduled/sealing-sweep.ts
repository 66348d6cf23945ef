// The sealing safety net (spec: a Cron sweep re-runs any completed submission still unsealed after 10
// minutes): a lost queue message or a job that exhausted its retries is handed to the queue again, with
// a backoff per submission (10 min, 20 min, 40 min … capped at 12 h) and at most 12 sweeps, so one that
// can never be sealed (say its original file is gone) stops costing work after about three days.
import { listUnsealedCompleted, markSwept } from '../db/queries/submission-documents';
import type { ShardScope } from '../db/shards';
import { requestSealing } from '../services/submissions/complete-submitter';

export const SEALING_GRACE_MS = 10 * 60 * 1000;
const SWEEP_LIMIT = 100;
export const MAX_SEAL_SWEEPS = 12;

export function sweepBackoffMs(sweeps: number): number {
  return Math.min(SEALING_GRACE_MS * 2 ** sweeps, 12 * 60 * 60 * 1000);
}

/** Returns the ids handed to the queue. */
export async function sweepUnsealed({ db, queues }: ShardScope, now: number): Promise<number[]> {
  const stale = await listUnsealedCompleted(
    db,
    new Date(now - SEALING_GRACE_MS).toISOString(),
    now,
    SWEEP_LIMIT,
    MAX_SEAL_SWEEPS,
    sweepBackoffMs,
  );
  const ids = stale.map((s) => s.id);
  await markSwept(db, ids, new Date(now).toISOString());
  for (const id of ids) await requestSealing({ sealingQueue: queues.sealing }, id);
  return ids;
}
