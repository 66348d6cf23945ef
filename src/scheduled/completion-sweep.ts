// The completion safety net (issue 21 › 2): a pending submission whose every submitter has completed —
// the state the completion race left before completions checked their premise in their batch — is
// completed now: submission.completed once, completion copies, sealing. Bounded per run; a submission
// another request completes meanwhile is skipped by the guarded transition.
import { createDb } from '../db/client';
import { getAccount } from '../db/queries/accounts';
import { listCompletableSubmissions } from '../db/queries/submissions';
import type { Bindings } from '../env';
import { loadScope } from '../services/submissions/submission-scope';
import { completeLeftPending } from '../services/submissions/submission-state';

/** Submissions one run repairs: each is one batch of ~6 statements plus ~4 reads. */
export const COMPLETION_SWEEP_BATCH = 25;

export type CompletionSweepEnv = Pick<Bindings, 'DB' | 'MESSAGES_QUEUE' | 'SEALING_QUEUE' | 'SERVICE_NAME' | 'APP_URL'>;

/** Returns the ids of the submissions it completed. */
export async function completeLeftPendingSubmissions(env: CompletionSweepEnv, limit = COMPLETION_SWEEP_BATCH): Promise<number[]> {
  const db = createDb(env.DB);
  const completed: number[] = [];
  for (const submission of await listCompletableSubmissions(db, limit)) {
    try {
      const account = await getAccount(db, submission.accountId);
      if (!account) continue;
      const scope = await loadScope(db, submission);
      const ctx = {
        db,
        account,
        serviceName: env.SERVICE_NAME,
        apiBase: env.APP_URL || submission.linkBase,
        messagesQueue: env.MESSAGES_QUEUE,
        sealingQueue: env.SEALING_QUEUE,
      };
      if (await completeLeftPending(ctx, scope)) completed.push(submission.id);
    } catch (err) {
      // D1 failed for this one: the next run looks again; the others go on.
      console.error(`completing submission ${submission.id}:`, err);
    }
  }
  return completed;
}
