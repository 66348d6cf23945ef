// Where a submission's sealing stands, as the API reports it, and what happens when the sealing job
// gives up: the failure is recorded with a reason a tenant can read, and POST …/documents/reseal starts
// over (issue 21, point 3; decisions.md › Integrity (issue 21): stampable values).
import type { Db } from '../../db/client';
import { markSealFailed, resetSealing } from '../../db/queries/submission-documents';
import type { Submission } from '../../db/schema/index';
import { unprocessable } from '../../lib/errors';
import type { SealingQueueBody } from '../../env';

/** A reason sealing cannot go on that is worth telling the tenant as it is (no internals in it). */
export class SealingProblem extends Error {
  override name = 'SealingProblem';
}

export type SealingStatus = {
  status: 'not_completed' | 'in_progress' | 'sealed' | 'failed';
  reason: string | null;
  failed_at: string | null;
};

export function sealingStatus(submission: Pick<Submission, 'completedAt' | 'sealedAt' | 'sealFailedAt' | 'sealFailure'>): SealingStatus {
  if (submission.sealedAt) return { status: 'sealed', reason: null, failed_at: null };
  if (!submission.completedAt) return { status: 'not_completed', reason: null, failed_at: null };
  if (submission.sealFailedAt) return { status: 'failed', reason: submission.sealFailure, failed_at: submission.sealFailedAt };
  return { status: 'in_progress', reason: null, failed_at: null };
}

/**
 * The sentence stored for a failure: a SealingProblem's own; anything else may carry internals (SQL,
 * storage keys), so it is summarised and the log keeps the details.
 */
export function sealingFailureReason(error: unknown, submissionId: number): string {
  if (error instanceof SealingProblem) return error.message.slice(0, 500);
  return `Sealing stopped on an unexpected error; the service's logs hold the details (submission ${submissionId}).`;
}

/** Records that the sealing job's last retry failed (src/queues/sealing.ts). */
export async function recordSealingFailure(db: Db, submissionId: number, error: unknown, at = new Date().toISOString()): Promise<void> {
  await markSealFailed(db, submissionId, at, sealingFailureReason(error, submissionId));
}

/**
 * POST /api/submissions/{id}/documents/reseal: a completed, unsealed submission (failed or still in
 * progress) is handed to the sealing queue again with its failure cleared. Sealing is idempotent, so a
 * second message for one already queued costs one look-up.
 */
export async function requestReseal(
  db: Db,
  queue: Queue<SealingQueueBody>,
  submission: Pick<Submission, 'id' | 'accountId' | 'completedAt' | 'sealedAt'>,
): Promise<void> {
  if (submission.sealedAt) throw unprocessable('The documents of this submission are already sealed.');
  if (!submission.completedAt) throw unprocessable('The submission is not completed, so it has no documents to seal yet.');
  if (!(await resetSealing(db, submission.accountId, submission.id)))
    throw unprocessable('The documents of this submission are already sealed.');
  await queue.send({ type: 'seal', submissionId: submission.id });
}
