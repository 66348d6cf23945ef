// The sealing safety net (spec: a Cron sweep re-runs any completed submission still unsealed after 10
// minutes): a lost queue message or a job that exhausted its retries is handed to the queue again.
import { createDb } from '../db/client';
import { listUnsealedCompleted } from '../db/queries/submission-documents';
import type { Bindings } from '../env';
import { requestSealing } from '../services/submissions/submission-state';

export const SEALING_GRACE_MS = 10 * 60 * 1000;
const SWEEP_LIMIT = 100;

/** Returns the ids handed to the queue. */
export async function sweepUnsealed(env: Pick<Bindings, 'DB' | 'SEALING_QUEUE'>, now: number): Promise<number[]> {
  const stale = await listUnsealedCompleted(createDb(env.DB), new Date(now - SEALING_GRACE_MS).toISOString(), SWEEP_LIMIT);
  for (const { id } of stale) await requestSealing({ sealingQueue: env.SEALING_QUEUE }, id);
  return stale.map((s) => s.id);
}
