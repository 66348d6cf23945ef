// Legal holds (issue 33 › 5): a held submission is never erased, by retention or by a permanent delete.
// Setting and releasing are each one guarded statement with their trail row; setting is refused once an
// erasure has claimed the submission, which is how a hold and a purge racing each other end with one
// winner (erase-submission.ts).
import { releaseLegalHoldStatement, setLegalHoldStatement } from '../../db/queries/retention';
import { ApiError } from '../../lib/errors';
import { nowIso } from '../../lib/time';
import { ChangeSet } from './change-set';
import { trail, type EventContext } from './submission-events';
import type { SubmissionScope } from './submission-scope';

/** The hold as set; a submission already held keeps its first hold and nothing is written. */
export async function setLegalHold(
  ctx: EventContext,
  scope: SubmissionScope,
  by: { userId: number; reason?: string },
): Promise<SubmissionScope> {
  if (scope.submission.legalHoldAt) return scope;
  const at = nowIso();
  const cs = new ChangeSet(ctx.db).guarded(setLegalHoldStatement(ctx.db, scope.submission.id, at));
  trail(ctx, cs, scope, null, 'legal_hold_set', { user_id: by.userId, ...(by.reason ? { reason: by.reason } : {}) }, at);
  await cs.commit(
    undefined,
    () => new ApiError(409, 'This submission is being erased or was erased meanwhile, so it can no longer be put under a legal hold.'),
  );
  return { ...scope, submission: { ...scope.submission, legalHoldAt: at, updatedAt: at } };
}

/** The hold released; a submission without one is answered as it is. */
export async function releaseLegalHold(ctx: EventContext, scope: SubmissionScope, by: { userId: number }): Promise<SubmissionScope> {
  if (!scope.submission.legalHoldAt) return scope;
  const at = nowIso();
  const cs = new ChangeSet(ctx.db).guarded(releaseLegalHoldStatement(ctx.db, scope.submission.id, at));
  trail(ctx, cs, scope, null, 'legal_hold_released', { user_id: by.userId, held_since: scope.submission.legalHoldAt }, at);
  await cs.commit(undefined);
  return { ...scope, submission: { ...scope.submission, legalHoldAt: null, updatedAt: at } };
}
