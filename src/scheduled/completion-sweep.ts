// The completion safety net (issue 21 › 2): a pending submission whose every submitter has completed —
// the state the completion race left before completions checked their premise in their batch — is
// completed now: submission.completed once, completion copies, sealing. Bounded per run; a submission
// another request completes meanwhile is skipped by the guarded transition.
import { listCompletableSubmissions } from '../db/queries/submissions';
import type { ShardScope } from '../db/shards';
import { completeLeftPending } from '../services/submissions/complete-submitter';
import { actOnSubmissions } from '../services/submissions/act-on-submissions';

/** Submissions one run repairs: each is one batch of ~6 statements plus ~4 reads. */
export const COMPLETION_SWEEP_BATCH = 25;

/** Returns the ids of the submissions it completed. */
export async function completeLeftPendingSubmissions(scope: ShardScope, limit = COMPLETION_SWEEP_BATCH): Promise<number[]> {
  return actOnSubmissions(scope, await listCompletableSubmissions(scope.db, limit), 'completing', completeLeftPending);
}
