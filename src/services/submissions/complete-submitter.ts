// Completing a submitter and, when they are the last, the submission (spec › States and transitions;
// issue 21 › 2): one guarded batch, recomputed from the rows when a concurrent change beat it, then the
// sealing job. What a completion adds besides the transition lives beside it: completion-links.ts,
// completion-identity.ts, completion-usage.ts.
import { effectiveRetentionDays, purgeAtOf } from './retention-period';
import type { Db } from '../../db/client';
import {
  completionPremiseStatement,
  findSubmissionById,
  listSubmittersOf,
  transitionSubmissionStatement,
  transitionSubmitterStatement,
} from '../../db/queries/submissions';
import { memberCompletedStatement } from '../../db/queries/submitter-members';
import type { Submitter, SubmitterMember } from '../../db/schema/index';
import { ApiError, unprocessable } from '../../lib/errors';
import { localDate, nowIso } from '../../lib/time';
import { ChangeSet } from './change-set';
import { withDocumentLinks } from './completion-links';
import { signingCompleteEvent } from './completion-identity';
import { recordSignatureUsage } from './completion-usage';
import { isBlank } from '../../shared/field-values';
import { membersOf } from './any-of';
import { channelsFor, emailOnly } from './notifications';
import { ACTIVE_SUBMITTER_STATES, submittersToInvite, witnessed } from './signing-order';
import { formEvent, submissionEvent, trail } from './submission-events';
import { messageSource, queueMessages } from './submission-messages';
import { fieldsOf, type SubmissionScope } from './submission-scope';
import { assertCanComplete, invite, type StateContext } from './submission-state';

export type CompletionInput = {
  /** Field uuid → value, already checked; merged over the submitter's stored values. */
  values?: Record<string, unknown>;
  /** api | signing_page | auto_sign: how completion happened, shown on the audit page. */
  via: 'api' | 'signing_page' | 'auto_sign';
  verificationMethod?: string;
  /** Fields the form's conditions hide: not required (signing page, src/shared/form-rules.ts). */
  hiddenFields?: string[];
  /**
   * qes (issue 18 › 3): how many submitters had completed when this signer's revision was prepared on
   * the document as it then was; if another completed since, nothing is written (SignedOnStaleRevision).
   */
  completedBefore?: number;
  /**
   * The member of an any-one-of submitter who signs (issue 33 › 2): their contact becomes the
   * submitter's, in the same guarded batch, so of two members completing at once exactly one does.
   */
  member?: SubmitterMember;
};

/** A qes signer's revision was prepared before another signer completed: it signs an outdated file. */
export class SignedOnStaleRevision extends Error {
  constructor() {
    super("Another signer completed after this signer's revision was prepared.");
    this.name = 'SignedOnStaleRevision';
  }
}

/**
 * Values a submitter completes with: stored values, new ones over them, date-now fields filled with
 * the day it is in the account's time zone.
 */
export function completionValues(
  scope: SubmissionScope,
  submitter: Submitter,
  extra: Record<string, unknown>,
  at: string,
  timeZone: string,
): Record<string, unknown> {
  const values: Record<string, unknown> = { ...submitter.values, ...extra };
  for (const field of fieldsOf(scope.template, submitter)) {
    if (field.type === 'datenow' && isBlank(values[field.uuid])) values[field.uuid] = localDate(at, timeZone);
  }
  return values;
}

/** How often a completion is recomputed after a concurrent change to the same submission beat it. */
const COMPLETION_ATTEMPTS = 5;

/** The batch of a completion found the submission other than it was read (ChangeSet guard). */
class StaleCompletion extends Error {}

/**
 * Completes a submitter: `completed` with their values, form.completed and submitter.completed; then
 * either completes the submission (submission.completed, completion copies, sealing) or, in sequential
 * order, invites whoever is next.
 */
export async function completeSubmitter(
  ctx: StateContext,
  scope: SubmissionScope,
  submitter: Submitter,
  input: CompletionInput,
): Promise<SubmissionScope> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await completeOnce(ctx, scope, submitter, input);
    } catch (error) {
      if (!(error instanceof StaleCompletion)) throw error;
      if (attempt >= COMPLETION_ATTEMPTS)
        throw new ApiError(409, 'The submission changed while this request was processed; reload it and try again.');
      // Another request changed the submission between our read and our batch (most often another
      // signer completing at the same moment): read it again and decide from the rows as they are.
      scope = await reloadScope(ctx.db, scope);
      const current = scope.submitters.find((s) => s.id === submitter.id);
      if (!current) throw unprocessable('This submitter is no longer part of the submission.');
      submitter = current;
    }
  }
}

/** The submission and its submitters read again; the template snapshot cannot have changed. */
async function reloadScope(db: Db, scope: SubmissionScope): Promise<SubmissionScope> {
  const [submission, submitters] = await Promise.all([
    findSubmissionById(db, scope.submission.id),
    listSubmittersOf(db, [scope.submission.id]),
  ]);
  if (!submission) throw unprocessable('This submission no longer exists.');
  // The link domain the caller chose (withLinkDomain) stays with the scope.
  return { ...scope, submission, submitters };
}

async function completeOnce(
  ctx: StateContext,
  scope: SubmissionScope,
  submitter: Submitter,
  input: CompletionInput,
): Promise<SubmissionScope> {
  const at = nowIso();
  const values = completionValues(scope, submitter, input.values ?? {}, at, ctx.account.timezone);
  // Checked on every attempt against the rows as read; the batch's premise guard keeps it true at commit.
  if (input.completedBefore !== undefined && scope.submitters.filter((s) => s.status === 'completed').length !== input.completedBefore) {
    throw new SignedOnStaleRevision();
  }
  assertCanComplete(scope, submitter, values, input.hiddenFields);

  const cs = new ChangeSet(ctx.db);
  const member = input.member;
  // The member who signs becomes the submitter, with the disclosure they accepted themselves.
  const chosen: Partial<Submitter> = member
    ? {
        email: member.email,
        name: member.name,
        phone: member.phone,
        nameFromSigner: false,
        disclosureVersion: member.disclosureVersion,
        disclosureAcceptedAt: member.disclosureAcceptedAt,
      }
    : {};
  const completed: Submitter = {
    ...submitter,
    ...chosen,
    status: 'completed',
    values,
    completedAt: at,
    openedAt: submitter.openedAt,
    completedIp: ctx.ip ?? null,
    completedUserAgent: ctx.userAgent ?? null,
    verificationMethod: input.verificationMethod ?? submitter.verificationMethod ?? (input.via === 'api' ? 'api' : 'link'),
    updatedAt: at,
  };
  cs.guarded(
    transitionSubmitterStatement(ctx.db, submitter.id, ACTIVE_SUBMITTER_STATES, {
      ...chosen,
      status: 'completed',
      values,
      completedAt: at,
      completedIp: completed.completedIp,
      completedUserAgent: completed.completedUserAgent,
      verificationMethod: completed.verificationMethod,
      updatedAt: at,
    }),
  );
  recordSignatureUsage(ctx, cs, scope, submitter, at);
  const submitters = scope.submitters.map((s) => (s.id === submitter.id ? completed : s));
  // Decided inside the batch: it commits only if the submitters still stand as read (issue 21 › 2).
  cs.guarded(completionPremiseStatement(ctx.db, scope.submission.id, submitters.filter((s) => s.status !== 'completed').length, at));
  const allDone = submitters.every((s) => s.status === 'completed') && witnessed(scope, submitters);
  let next: SubmissionScope = { ...scope, submission: { ...scope.submission, updatedAt: at }, submitters };
  if (member) {
    cs.add(memberCompletedStatement(ctx.db, member.id, at));
    next = { ...next, members: next.members?.map((m) => (m.id === member.id ? { ...m, completedAt: at } : m)) };
  }
  // The trail names who signed and the group they were chosen from (issue 33 › 2).
  const group = member ? { signed_by: member.email, chosen_from: membersOf(scope.members, submitter).map((m) => m.email) } : {};
  trail(ctx, cs, scope, completed, 'completed', { via: input.via, ...group }, at);
  if (allDone) next = await withDocumentLinks(ctx, { ...next, submission: { ...next.submission, status: 'completed', completedAt: at } });
  formEvent(ctx, cs, 'form.completed', next, completed, true);
  formEvent(ctx, cs, 'submitter.completed', next, completed, true);
  await signingCompleteEvent(ctx, cs, next, completed);

  if (allDone) {
    finishSubmission(ctx, cs, next, at);
  } else {
    const invited = new Map(submittersToInvite(next.submission, submitters).map((s) => [s.id, invite(ctx, cs, next, s, at)]));
    next = { ...next, submitters: submitters.map((s) => invited.get(s.id) ?? s) };
  }
  await cs.commit(ctx.messagesQueue, () => new StaleCompletion());
  if (allDone) await requestSealing(ctx, next.submission.id);
  return next;
}

/**
 * The submission's own completion, added to a ChangeSet: pending → completed (guarded, so it happens
 * once whoever tries), its trail row, submission.completed and the completion copies. `scope` already
 * shows the submission completed at `at`.
 */
function finishSubmission(ctx: StateContext, cs: ChangeSet, scope: SubmissionScope, at: string): void {
  // Retention (issue 33 › 5): the day it is erased follows from the template's period, else the account's.
  const purgeAt = purgeAtOf(at, effectiveRetentionDays(scope.template.preferences.retention_days, ctx.account.documentsRetentionDays));
  cs.guarded(
    transitionSubmissionStatement(ctx.db, scope.submission.id, ['pending'], {
      status: 'completed',
      completedAt: at,
      purgeAt,
      updatedAt: at,
    }),
  );
  trail(ctx, cs, scope, null, 'submission_completed', {}, at);
  submissionEvent(ctx, cs, 'submission.completed', scope);
  const source = messageSource(ctx, scope);
  for (const s of scope.submitters) {
    queueMessages(ctx, cs, 'completion', source, s, emailOnly(channelsFor(scope.submission, s)));
  }
}

/**
 * Completes a pending submission whose submitters have all completed but which was left pending (the
 * completion race before issue 21 could do it). Returns false when it is not in that state, or when
 * another request completed it first.
 */
export async function completeLeftPending(ctx: StateContext, scope: SubmissionScope): Promise<boolean> {
  const { submission, submitters } = scope;
  if (submission.status !== 'pending' || submitters.length === 0) return false;
  if (!submitters.every((s) => s.status === 'completed') || !witnessed(scope, submitters)) return false;
  const at = nowIso();
  const next = await withDocumentLinks(ctx, {
    ...scope,
    submission: { ...submission, status: 'completed', completedAt: at, updatedAt: at },
  });
  const cs = new ChangeSet(ctx.db);
  finishSubmission(ctx, cs, next, at);
  try {
    await cs.commit(ctx.messagesQueue, () => new StaleCompletion());
  } catch (error) {
    if (error instanceof StaleCompletion) return false;
    throw error;
  }
  await requestSealing(ctx, submission.id);
  return true;
}

/** Hands a completed submission to the sealing job; a lost message is recovered by the sealing sweep. */
export async function requestSealing(ctx: Pick<StateContext, 'sealingQueue'>, submissionId: number): Promise<void> {
  if (!ctx.sealingQueue) return;
  await ctx.sealingQueue.send({ type: 'seal', submissionId }).catch((err) => console.error('sealing request failed', err));
}
