// How the API answers about erased and held submissions (issue 33 › 5; docs/decisions.md › Issue 33 ›
// Retention and erasure): an erased one is 410 Gone with when it was erased, a held one refuses erasure.
import type { Submission } from '../../db/schema/index';
import { ApiError } from '../../lib/errors';

/** 410 for an erased submission (or one whose erasure has begun): its documents and values are gone. */
export function assertNotErased(submission: Pick<Submission, 'erasedAt' | 'erasureStartedAt'>): void {
  if (submission.erasedAt) {
    throw new ApiError(
      410,
      `This submission was erased on ${submission.erasedAt}: its documents and values are gone; its audit trail and document hashes are kept.`,
      { erased_at: submission.erasedAt },
    );
  }
  if (submission.erasureStartedAt) {
    throw new ApiError(410, 'This submission is being erased: its documents and values are being deleted.', {
      erased_at: submission.erasureStartedAt,
    });
  }
}

export function legalHoldConflict(since: string | null): ApiError {
  return new ApiError(
    409,
    `This submission is under a legal hold${since ? ` (since ${since})` : ''} and cannot be erased; release the hold with DELETE /api/submissions/{id}/legal_hold first.`,
  );
}
