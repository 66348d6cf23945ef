// The submission and submitter state machines (spec › States and transitions; decisions.md › Lifecycles):
// each transition's guards and its guarded statements. Each transition is one ChangeSet: guarded row
// updates, outbox events, the submission's trail and its messages, committed together. The signing page
// and the API call the same functions; completing a submitter is complete-submitter.ts.
import type { Db } from '../../db/client';
import { transitionSubmissionStatement, transitionSubmitterStatement } from '../../db/queries/submissions';
import type { Account, Submission, Submitter } from '../../db/schema/index';
import { signerProblems, signerRefusal, unprocessable, type SignerProblem } from '../../lib/errors';
import { nowIso } from '../../lib/time';
import type { MessageQueueBody } from '../../env';
import type { LinkAccount } from '../document-links/links';
import { ChangeSet } from './change-set';
import { withDocumentLinks } from './completion-links';
import { checkFieldValue, isBlank } from '../../shared/field-values';
import { membersOf, recipientsOf } from './any-of';
import type { MessageKind } from '../mail/compose';
import { channelsFor, emailOnly, reachable } from './notifications';
import type { SealingQueueBody } from '../../env';
import { ACTIVE_SUBMITTER_STATES, isActive, isTurnOf, submittersToInvite, waitingFor } from './signing-order';
import { formEvent, submissionEvent, trail } from './submission-events';
import { messageSource, queueMessages } from './submission-messages';
import { fieldsOf, type SubmissionScope } from './submission-scope';

export type StateContext = {
  db: Db;
  account: Pick<Account, 'id' | 'name' | 'locale' | 'timezone' | 'signatureProvider' | 'documentsRetentionDays'> & LinkAccount;
  serviceName: string;
  /** ENCRYPTION_KEY, which public document links are signed under; without it payloads carry none. */
  linkSecret?: string;
  /** Origin of API links in payloads (`download_url`). */
  apiBase: string;
  messagesQueue?: Queue<MessageQueueBody>;
  /** The sealing job's queue: a completed submission is handed to it after the commit. */
  sealingQueue?: Queue<SealingQueueBody>;
  /** Who caused the change, for the submission's trail. */
  ip?: string | null;
  userAgent?: string | null;
};

/**
 * Invites `submitter` over the channels they have: `waiting` → `sent`, the invitation messages,
 * `submitter.sent`. Without any channel the submitter stays `waiting` (decisions.md › Lifecycles).
 * Returns the submitter as it will be.
 */
export function invite(ctx: StateContext, cs: ChangeSet, scope: SubmissionScope, submitter: Submitter, at: string): Submitter {
  const channels = channelsFor(scope.submission, submitter);
  if (!reachable(channels)) return submitter;
  const sent: Submitter = { ...submitter, status: 'sent', sentAt: at, updatedAt: at };
  cs.guarded(transitionSubmitterStatement(ctx.db, submitter.id, ['waiting'], { status: 'sent', sentAt: at, updatedAt: at }));
  queueToEach(ctx, cs, 'invitation', scope, submitter);
  formEvent(ctx, cs, 'submitter.sent', scope, sent);
  trail(ctx, cs, scope, submitter, 'sent', { channels: Object.keys(channels).filter((k) => channels[k as keyof typeof channels]) }, at);
  return sent;
}

/**
 * Queues one kind of message to each person a submitter stands for (any-of.ts › recipientsOf), each over
 * the channels they have; `always` ignores the submission's send_email switch (a reminder asked for by hand).
 */
function queueToEach(ctx: StateContext, cs: ChangeSet, kind: MessageKind, scope: SubmissionScope, submitter: Submitter, always = false) {
  const source = messageSource(ctx, scope);
  for (const person of recipientsOf(membersOf(scope.members, submitter), submitter)) {
    queueMessages(ctx, cs, kind, source, person, channelsFor(always ? { sendEmail: true } : scope.submission, person));
  }
}

/** Re-sends the invitation (or a reminder) without changing the state beyond `waiting` → `sent`. */
export async function remind(
  ctx: StateContext,
  scope: SubmissionScope,
  submitter: Submitter,
  kind: 'reminder' | 'invitation',
): Promise<Submitter> {
  assertSubmissionOpen(scope.submission);
  if (!isActive(submitter)) {
    throw unprocessable(`This submitter is ${submitter.status}; only submitters who have not finished can be reminded.`);
  }
  if (!isTurnOf(scope.submission, scope.submitters, submitter)) {
    throw unprocessable(
      'This submitter signs after others (in sequential order or a later group); they are invited when their turn comes.',
    );
  }
  const channels = channelsFor({ sendEmail: true }, submitter);
  if (!reachable(channels)) throw unprocessable('This submitter has no email address or phone number to send to.');
  const at = nowIso();
  const cs = new ChangeSet(ctx.db);
  let next: Submitter = { ...submitter, remindedAt: at, updatedAt: at };
  const values: Partial<Submitter> = { remindedAt: at, updatedAt: at };
  if (submitter.status === 'waiting') Object.assign(values, { status: 'sent', sentAt: at });
  next = { ...next, ...values };
  cs.guarded(transitionSubmitterStatement(ctx.db, submitter.id, [submitter.status], values));
  queueToEach(ctx, cs, kind, scope, submitter, true);
  if (submitter.status === 'waiting') formEvent(ctx, cs, 'submitter.sent', scope, next);
  trail(ctx, cs, scope, submitter, kind === 'reminder' ? 'reminded' : 'resent', {}, at);
  await cs.commit(ctx.messagesQueue);
  return next;
}

export function assertSubmissionOpen(submission: Submission): void {
  if (submission.status === 'pending') return;
  const why: Record<string, string> = {
    draft: 'This submission is a draft; send it first.',
    completed: 'This submission is already completed.',
    expired: 'This submission has expired and can no longer be signed.',
    archived: 'This submission is archived.',
  };
  // A signer reaches this through decline, delegate and witness: told in their language.
  const signerKey =
    submission.status === 'completed'
      ? 'signer_error.submission_completed'
      : submission.status === 'expired'
        ? 'signer_error.expired'
        : 'signer_error.unavailable';
  throw signerRefusal(why[submission.status] ?? `This submission is ${submission.status}.`, signerKey);
}

/** Sentences for required fields of the submitter's role that have no value (formula fields are computed), in English and the catalog's. */
function missingRequiredProblems(
  scope: SubmissionScope,
  submitter: Submitter,
  values: Record<string, unknown>,
  hidden: readonly string[] = [],
): SignerProblem[] {
  return fieldsOf(scope.template, submitter)
    .filter((f) => f.required && !f.readonly && !f.formula && f.type !== 'payment' && !hidden.includes(f.uuid))
    .filter((f) => isBlank(values[f.uuid]))
    .map((f) => checkFieldValue(f, null))
    .flatMap((r) => (r.ok ? [] : [{ english: r.problem, sentence: r.message }]));
}

/**
 * Throws the 422 completeSubmitter would give for these values, without writing anything: callers that
 * store other changes first (PUT /api/submitters/{id} with `completed: true`) check before they store.
 */
export function assertCanComplete(
  scope: SubmissionScope,
  submitter: Submitter,
  values: Record<string, unknown>,
  hiddenFields?: readonly string[],
): void {
  assertSubmissionOpen(scope.submission);
  // A signer meets these too (their submit, the qes callback page): each has the signer's sentence.
  if (!isActive(submitter)) {
    const signerKey =
      submitter.status === 'completed'
        ? 'signer_error.completed'
        : submitter.status === 'declined'
          ? 'signer_error.declined'
          : 'signer_error.unavailable';
    throw signerRefusal(`This submitter is already ${submitter.status}.`, signerKey);
  }
  if (scope.submitters.some((s) => s.status === 'declined')) {
    throw signerRefusal('Another submitter declined this submission, so it can no longer be completed.', 'signer_error.other_declined');
  }
  if (!isTurnOf(scope.submission, scope.submitters, submitter)) {
    const first = waitingFor(scope.submission, scope.submitters, submitter)[0];
    throw signerRefusal(
      `It is not this submitter's turn yet: ${first?.role ?? 'an earlier submitter'} signs first.`,
      'signer_error.waiting',
    );
  }
  const missing = missingRequiredProblems(scope, submitter, values, hiddenFields);
  if (missing.length) throw signerProblems(missing);
}

/** A signer declines (decisions.md › Lifecycles: the submission stays pending but can never complete). */
export async function declineSubmitter(
  ctx: StateContext,
  scope: SubmissionScope,
  submitter: Submitter,
  reason: string,
): Promise<SubmissionScope> {
  assertSubmissionOpen(scope.submission);
  if (!isActive(submitter)) {
    throw unprocessable(`This submitter is already ${submitter.status}.`);
  }
  const at = nowIso();
  const declined: Submitter = { ...submitter, status: 'declined', declinedAt: at, declineReason: reason, updatedAt: at };
  const cs = new ChangeSet(ctx.db);
  cs.guarded(
    transitionSubmitterStatement(ctx.db, submitter.id, ACTIVE_SUBMITTER_STATES, {
      status: 'declined',
      declinedAt: at,
      declineReason: reason,
      updatedAt: at,
    }),
  );
  const next = { ...scope, submitters: scope.submitters.map((s) => (s.id === submitter.id ? declined : s)) };
  trail(ctx, cs, scope, submitter, 'declined', { reason }, at);
  formEvent(ctx, cs, 'form.declined', next, declined);
  formEvent(ctx, cs, 'submitter.declined', next, declined);
  await cs.commit(ctx.messagesQueue);
  return next;
}

/**
 * Expires a pending submission (spec › Submission states): unfinished submitters become `expired` and
 * are emailed, completed ones stay completed; form.expired per expired submitter, then submission.expired.
 */
export async function expireSubmission(ctx: StateContext, scope: SubmissionScope): Promise<SubmissionScope | null> {
  if (scope.submission.status !== 'pending') return null;
  const at = nowIso();
  const cs = new ChangeSet(ctx.db);
  const submission: Submission = { ...scope.submission, status: 'expired', expiredAt: at, updatedAt: at };
  cs.guarded(transitionSubmissionStatement(ctx.db, submission.id, ['pending'], { status: 'expired', expiredAt: at, updatedAt: at }));
  const submitters = scope.submitters.map((s) => (isActive(s) ? { ...s, status: 'expired' as const, expiredAt: at, updatedAt: at } : s));
  const next: SubmissionScope = { ...scope, submission, submitters };
  const source = messageSource(ctx, next);
  for (const s of submitters) {
    if (s.status !== 'expired') continue;
    cs.add(transitionSubmitterStatement(ctx.db, s.id, ACTIVE_SUBMITTER_STATES, { status: 'expired', expiredAt: at, updatedAt: at }));
    formEvent(ctx, cs, 'form.expired', next, s);
    // Only people who were invited hear that it expired; someone never told about it is not emailed.
    const original = scope.submitters.find((o) => o.id === s.id)!;
    if (original.status !== 'waiting') {
      for (const person of recipientsOf(membersOf(scope.members, s), s)) {
        queueMessages(ctx, cs, 'expiry', source, person, emailOnly(channelsFor(submission, person)));
      }
    }
  }
  trail(ctx, cs, next, null, 'expired', {}, at);
  submissionEvent(ctx, cs, 'submission.expired', next);
  await cs.commit(ctx.messagesQueue, () => new Error('stale'));
  return next;
}

/** Archives a submission in any state but archived (spec › Submission states). */
export async function archiveSubmission(ctx: StateContext, scope: SubmissionScope): Promise<SubmissionScope> {
  if (scope.submission.status === 'archived') return scope;
  const at = nowIso();
  const submission: Submission = {
    ...scope.submission,
    status: 'archived',
    archivedAt: at,
    archivedFrom: scope.submission.status,
    updatedAt: at,
  };
  // A completed submission's payload lists its documents, so it carries their links too.
  const next = await withDocumentLinks(ctx, { ...scope, submission });
  const cs = new ChangeSet(ctx.db);
  cs.guarded(
    transitionSubmissionStatement(ctx.db, submission.id, [scope.submission.status], {
      status: 'archived',
      archivedAt: at,
      archivedFrom: scope.submission.status,
      updatedAt: at,
    }),
  );
  trail(ctx, cs, next, null, 'archived', {}, at);
  submissionEvent(ctx, cs, 'submission.archived', next);
  await cs.commit(ctx.messagesQueue);
  return next;
}

/** Sends a draft (decisions.md › Lifecycles): `draft` → `pending`, submission.sent, invitations by order. */
export async function sendDraft(ctx: StateContext, scope: SubmissionScope): Promise<SubmissionScope> {
  if (scope.submission.status !== 'draft') throw unprocessable(`Only drafts can be sent; this submission is ${scope.submission.status}.`);
  if (scope.submission.expireAt && scope.submission.expireAt <= nowIso()) {
    throw unprocessable('expire_at has passed; set a later expire_at with PUT /api/submissions/{id} before sending.');
  }
  const at = nowIso();
  const submission: Submission = { ...scope.submission, status: 'pending', sentAt: at, updatedAt: at };
  const cs = new ChangeSet(ctx.db);
  cs.guarded(transitionSubmissionStatement(ctx.db, submission.id, ['draft'], { status: 'pending', sentAt: at, updatedAt: at }));
  let next: SubmissionScope = { ...scope, submission };
  const invited = new Map(submittersToInvite(submission, scope.submitters).map((s) => [s.id, invite(ctx, cs, next, s, at)]));
  next = { ...next, submitters: scope.submitters.map((s) => invited.get(s.id) ?? s) };
  trail(ctx, cs, next, null, 'sent', {}, at);
  submissionEvent(ctx, cs, 'submission.sent', next);
  await cs.commit(ctx.messagesQueue);
  return next;
}
