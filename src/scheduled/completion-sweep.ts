// The completion safety net (issue 21 › 2): a pending submission whose every submitter has completed —
// the state the completion race left before completions checked their premise in their batch — is
// completed now: submission.completed once, completion copies, sealing. Bounded per run; a submission
// another request completes meanwhile is skipped by the guarded transition.
import { createDb } from '../db/client';
import { listCompletableSubmissions } from '../db/queries/submissions';
import type { Bindings } from '../env';
import { completeLeftPending } from '../services/submissions/submission-state';
import { actOnSubmissions } from './act-on-submissions';

/** Submissions one run repairs: each is one batch of ~6 statements plus ~4 reads. */
export const COMPLETION_SWEEP_BATCH = 25;

export type CompletionSweepEnv = Pick<Bindings, 'DB' | 'MESSAGES_QUEUE' | 'SEALING_QUEUE' | 'SERVICE_NAME' | 'APP_URL'>;

/** Returns the ids of the submissions it completed. */
export async function completeLeftPendingSubmissions(env: CompletionSweepEnv, limit = COMPLETION_SWEEP_BATCH): Promise<number[]> {
  const db = createDb(env.DB);
  return actOnSubmissions(env, db, await listCompletableSubmissions(db, limit), 'completing', completeLeftPending);
}
