// The submission and submitter state machines (spec › States and transitions; decisions.md › Lifecycles).
// Each transition is one ChangeSet: guarded row updates, outbox events, the submission's trail and its
// messages, committed together. The signing page and the API call the same functions.
import type { Db } from '../../db/client';
import {
  completionPremiseStatement,
  findSubmissionById,
  insertSubmissionEventStatement,
  listSubmittersOf,
  transitionSubmissionStatement,
  transitionSubmitterStatement,
} from '../../db/queries/submissions';
import { messageInsert } from '../../db/queries/messages';
import { insertSignatureUsageStatement } from '../../db/queries/signature-usage';
import { latestVerification } from '../../db/queries/signing';
import type { Account, Submission, Submitter } from '../../db/schema/index';
import type { EventName } from '../../lib/events';
import { ApiError, unprocessable } from '../../lib/errors';
import { localDate, nowIso } from '../../lib/time';
import type { MessageQueueBody } from '../mail/outbox';
import { outboxInsert } from '../events/outbox';
import { payloadDocumentLinks, type LinkAccount } from '../document-links/links';
import { formEventData, submissionEventData } from '../webhooks/payloads';
import { costCentsOf } from '../signature-levels/levels';
import { signerIdentity } from '../signature-levels/signer-identity';
import { ChangeSet } from './change-set';
import { checkFieldValue, isBlank } from '../../shared/field-values';
import { channelsFor, messagesFor, type MessageSource } from './notifications';
import {
  fieldsOf,
  payloadSubmission,
  payloadSubmitter,
  submissionDocuments,
  submissionRef,
  templateRef,
  type SubmissionScope,
} from './submission-scope';

export type SealingQueueBody = { type: 'seal'; submissionId: number };

export type StateContext = {
  db: Db;
  account: Pick<Account, 'id' | 'name' | 'timezone' | 'signatureProvider'> & LinkAccount;
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

/** Submitter states that can still act (fill, sign, decline, be delegated). */
export const ACTIVE_SUBMITTER_STATES = ['waiting', 'sent', 'opened'] as const;

function messageSource(ctx: StateContext, scope: SubmissionScope): MessageSource {
  return {
    account: ctx.account,
    serviceName: ctx.serviceName,
    submission: scope.submission,
    template: { name: scope.template.name, preferences: scope.template.preferences },
    brand: scope.brand,
    domainBranding: scope.domainBranding,
  };
}

/**
 * An event whose payload lists the submission's signed documents waits for them: every URL in a
 * delivered payload works when it arrives (docs/webhooks.md › Events and documents).
 */
function awaitingDocuments(scope: SubmissionScope, documents: readonly unknown[]): number | undefined {
  return documents.length > 0 ? scope.submission.id : undefined;
}

export function formEvent(ctx: StateContext, cs: ChangeSet, event: EventName, scope: SubmissionScope, submitter: Submitter, withDocuments = false): void {
  const documents = withDocuments ? submissionDocuments(ctx.apiBase, scope.submission, scope.template.documents, scope.documentLinks) : [];
  cs.add(
    outboxInsert(ctx.db, {
      accountId: ctx.account.id,
      event,
      data: formEventData({
        submitter: payloadSubmitter(submitter),
        submission: submissionRef(scope.submission, scope.template),
        template: templateRef(scope.template),
        ...(withDocuments ? { documents } : {}),
      }),
      awaitsSealOf: awaitingDocuments(scope, documents),
    }),
  );
}

export function submissionEvent(ctx: StateContext, cs: ChangeSet, event: EventName, scope: SubmissionScope): void {
  const submission = payloadSubmission(ctx.apiBase, scope);
  cs.add(
    outboxInsert(ctx.db, {
      accountId: ctx.account.id,
      event,
      data: submissionEventData({ submission, template: templateRef(scope.template) }),
      awaitsSealOf: awaitingDocuments(scope, submission.documents),
    }),
  );
}

export function trail(ctx: StateContext, cs: ChangeSet, scope: SubmissionScope, submitter: Submitter | null, action: string, data: Record<string, unknown> = {}, at?: string): void {
  cs.add(
    insertSubmissionEventStatement(ctx.db, { submissionId: scope.submission.id }, submitter ? { submitterId: submitter.id } : null, {
      accountId: ctx.account.id,
      action,
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      data,
      at,
    }),
  );
}

/**
 * Who is invited now (spec › Submitter states): nobody once someone declined; in parallel order every
 * waiting submitter; in sequential order the first one who has not completed, if still waiting.
 */
export function submittersToInvite(submission: Pick<Submission, 'submittersOrder'>, submitters: Submitter[]): Submitter[] {
  if (submitters.some((s) => s.status === 'declined')) return [];
  if (submission.submittersOrder === 'parallel') return submitters.filter((s) => s.status === 'waiting');
  const next = submitters.find((s) => s.status !== 'completed');
  return next && next.status === 'waiting' ? [next] : [];
}

/** Whether it is this submitter's turn (always, in parallel order). */
export function isTurnOf(submission: Pick<Submission, 'submittersOrder'>, submitters: Submitter[], submitter: Submitter): boolean {
  if (submission.submittersOrder === 'parallel') return true;
  const next = submitters.find((s) => s.status !== 'completed');
  return next?.id === submitter.id;
}

/**
 * Invites `submitter` over the channels they have: `waiting` → `sent`, the invitation messages,
 * `submitter.sent`. Without any channel the submitter stays `waiting` (decisions.md › Lifecycles).
 * Returns the submitter as it will be.
 */
export function invite(ctx: StateContext, cs: ChangeSet, scope: SubmissionScope, submitter: Submitter, at: string): Submitter {
  const channels = channelsFor(scope.submission, submitter);
  if (!channels.email && !channels.sms) return submitter;
  const sent: Submitter = { ...submitter, status: 'sent', sentAt: at, updatedAt: at };
  cs.guarded(transitionSubmitterStatement(ctx.db, submitter.id, ['waiting'], { status: 'sent', sentAt: at, updatedAt: at }));
  for (const message of messagesFor('invitation', messageSource(ctx, scope), submitter, channels)) cs.addMessage(messageInsert(ctx.db, message));
  formEvent(ctx, cs, 'submitter.sent', scope, sent);
  trail(ctx, cs, scope, submitter, 'sent', { channels: Object.keys(channels).filter((k) => channels[k as keyof typeof channels]) }, at);
  return sent;
}

/** Re-sends the invitation (or a reminder) without changing the state beyond `waiting` → `sent`. */
export async function remind(ctx: StateContext, scope: SubmissionScope, submitter: Submitter, kind: 'reminder' | 'invitation'): Promise<Submitter> {
  assertSubmissionOpen(scope.submission);
  if (!(ACTIVE_SUBMITTER_STATES as readonly string[]).includes(submitter.status)) {
    throw unprocessable(`This submitter is ${submitter.status}; only submitters who have not finished can be reminded.`);
  }
  if (!isTurnOf(scope.submission, scope.submitters, submitter)) {
    throw unprocessable('This submitter signs after others in sequential order; they are invited when their turn comes.');
  }
  const channels = channelsFor({ sendEmail: true }, submitter);
  if (!channels.email && !channels.sms) throw unprocessable('This submitter has no email address or phone number to send to.');
  const at = nowIso();
  const cs = new ChangeSet(ctx.db);
  let next: Submitter = { ...submitter, remindedAt: at, updatedAt: at };
  const values: Partial<Submitter> = { remindedAt: at, updatedAt: at };
  if (submitter.status === 'waiting') Object.assign(values, { status: 'sent', sentAt: at });
  next = { ...next, ...values };
  cs.guarded(transitionSubmitterStatement(ctx.db, submitter.id, [submitter.status], values));
  for (const message of messagesFor(kind, messageSource(ctx, scope), submitter, channels)) cs.addMessage(messageInsert(ctx.db, message));
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
  throw unprocessable(why[submission.status] ?? `This submission is ${submission.status}.`);
}

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
};

/** A qes signer's revision was prepared before another signer completed: it signs an outdated file. */
export class SignedOnStaleRevision extends Error {
  constructor() {
    super('Another signer completed after this signer\'s revision was prepared.');
    this.name = 'SignedOnStaleRevision';
  }
}

/**
 * Values a submitter completes with: stored values, new ones over them, date-now fields filled with
 * the day it is in the account's time zone.
 */
export function completionValues(scope: SubmissionScope, submitter: Submitter, extra: Record<string, unknown>, at: string, timeZone: string): Record<string, unknown> {
  const values: Record<string, unknown> = { ...submitter.values, ...extra };
  for (const field of fieldsOf(scope.template, submitter)) {
    if (field.type === 'datenow' && isBlank(values[field.uuid])) values[field.uuid] = localDate(at, timeZone);
  }
  return values;
}

/** Sentences for required fields of the submitter's role that have no value (formula fields are computed). */
export function missingRequired(scope: SubmissionScope, submitter: Submitter, values: Record<string, unknown>, hidden: readonly string[] = []): string[] {
  return fieldsOf(scope.template, submitter)
    .filter((f) => f.required && !f.readonly && !f.formula && f.type !== 'payment' && !hidden.includes(f.uuid))
    .filter((f) => isBlank(values[f.uuid]))
    .map((f) => checkFieldValue(f, null))
    .flatMap((r) => (r.ok ? [] : [r.problem]));
}

/**
 * Completes a submitter: `completed` with their values, form.completed and submitter.completed; then
 * either completes the submission (submission.completed, completion copies, sealing) or, in sequential
 * order, invites whoever is next.
 */
/**
 * Throws the 422 completeSubmitter would give for these values, without writing anything: callers that
 * store other changes first (PUT /api/submitters/{id} with `completed: true`) check before they store.
 */
export function assertCanComplete(scope: SubmissionScope, submitter: Submitter, values: Record<string, unknown>, hiddenFields?: readonly string[]): void {
  assertSubmissionOpen(scope.submission);
  if (!(ACTIVE_SUBMITTER_STATES as readonly string[]).includes(submitter.status)) {
    throw unprocessable(`This submitter is already ${submitter.status}.`);
  }
  if (scope.submitters.some((s) => s.status === 'declined')) {
    throw unprocessable('Another submitter declined this submission, so it can no longer be completed.');
  }
  if (!isTurnOf(scope.submission, scope.submitters, submitter)) {
    const waitingFor = scope.submitters.find((s) => s.status !== 'completed');
    throw unprocessable(`It is not this submitter's turn yet: in sequential order ${waitingFor?.role ?? 'an earlier submitter'} signs first.`);
  }
  const missing = missingRequired(scope, submitter, values, hiddenFields);
  if (missing.length) throw unprocessable(missing.length === 1 ? missing[0] : missing);
}

/** How often a completion is recomputed after a concurrent change to the same submission beat it. */
const COMPLETION_ATTEMPTS = 5;

/** The batch of a completion found the submission other than it was read (ChangeSet guard). */
class StaleCompletion extends Error {}

export async function completeSubmitter(ctx: StateContext, scope: SubmissionScope, submitter: Submitter, input: CompletionInput): Promise<SubmissionScope> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await completeOnce(ctx, scope, submitter, input);
    } catch (error) {
      if (!(error instanceof StaleCompletion)) throw error;
      if (attempt >= COMPLETION_ATTEMPTS) throw new ApiError(409, 'The submission changed while this request was processed; reload it and try again.');
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
  const [submission, submitters] = await Promise.all([findSubmissionById(db, scope.submission.id), listSubmittersOf(db, [scope.submission.id])]);
  if (!submission) throw unprocessable('This submission no longer exists.');
  // The link base the caller chose (a custom domain, useLinkDomain) stays: the row keeps the service's.
  return { ...scope, submission: { ...submission, linkBase: scope.submission.linkBase }, submitters };
}

async function completeOnce(ctx: StateContext, scope: SubmissionScope, submitter: Submitter, input: CompletionInput): Promise<SubmissionScope> {
  const at = nowIso();
  const values = completionValues(scope, submitter, input.values ?? {}, at, ctx.account.timezone);
  // Checked on every attempt against the rows as read; the batch's premise guard keeps it true at commit.
  if (input.completedBefore !== undefined && scope.submitters.filter((s) => s.status === 'completed').length !== input.completedBefore) {
    throw new SignedOnStaleRevision();
  }
  assertCanComplete(scope, submitter, values, input.hiddenFields);

  const cs = new ChangeSet(ctx.db);
  const completed: Submitter = {
    ...submitter,
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
      status: 'completed',
      values,
      completedAt: at,
      completedIp: completed.completedIp,
      completedUserAgent: completed.completedUserAgent,
      verificationMethod: completed.verificationMethod,
      updatedAt: at,
    }),
  );
  // The signature's level and price for billing (issue 18 › 6), in the batch that completes it: a
  // completion that loses a race records nothing, and one submitter is never counted twice.
  cs.add(
    insertSignatureUsageStatement(ctx.db, {
      accountId: ctx.account.id,
      submissionId: scope.submission.id,
      submitterId: submitter.id,
      level: scope.submission.signatureLevel,
      costCents: costCentsOf(scope.submission.signatureLevel),
      signedAt: at,
    }),
  );
  const submitters = scope.submitters.map((s) => (s.id === submitter.id ? completed : s));
  // Decided inside the batch: it commits only if the submitters still stand as read (issue 21 › 2).
  cs.guarded(completionPremiseStatement(ctx.db, scope.submission.id, submitters.filter((s) => s.status !== 'completed').length, at));
  const allDone = submitters.every((s) => s.status === 'completed') && witnessed(scope, submitters);
  let next: SubmissionScope = { ...scope, submission: { ...scope.submission, updatedAt: at }, submitters };

  trail(ctx, cs, scope, submitter, 'completed', { via: input.via }, at);
  if (allDone) next = await withDocumentLinks(ctx, { ...next, submission: { ...next.submission, status: 'completed', completedAt: at } });
  formEvent(ctx, cs, 'form.completed', next, completed, true);
  formEvent(ctx, cs, 'submitter.completed', next, completed, true);
  // Identity-bound signing (spec › Events: signing.complete follows form.completed): every aes and qes
  // signer, and an ses signer who proved control of their email with a code (signer-identity.ts).
  const verification = completed.verificationMethod === 'email_2fa' ? await latestVerification(ctx.db, submitter.id) : undefined;
  const identity = signerIdentity(scope.submission.signatureLevel, ctx.account, completed, verification?.verifiedAt ?? undefined);
  if (identity) {
    const documents = submissionDocuments(ctx.apiBase, next.submission, next.template.documents, next.documentLinks);
    cs.add(
      outboxInsert(ctx.db, {
        accountId: ctx.account.id,
        event: 'signing.complete',
        data: formEventData({
          submitter: payloadSubmitter(completed),
          submission: submissionRef(next.submission, next.template),
          template: templateRef(next.template),
          documents,
          identity,
        }),
        awaitsSealOf: awaitingDocuments(next, documents),
      }),
    );
  }

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
 * The scope with public links to its signed documents when the account has them on (spec › Public
 * document links): minted once, before the events are written, so that the stored payloads carry them
 * and a redelivery replays the same links.
 */
async function withDocumentLinks(ctx: StateContext, scope: SubmissionScope): Promise<SubmissionScope> {
  const links = await payloadDocumentLinks(ctx.linkSecret, ctx.apiBase, ctx.account, scope.submission, scope.template.documents.map((d) => d.id));
  return links ? { ...scope, documentLinks: links } : scope;
}

/**
 * The submission's own completion, added to a ChangeSet: pending → completed (guarded, so it happens
 * once whoever tries), its trail row, submission.completed and the completion copies. `scope` already
 * shows the submission completed at `at`.
 */
function finishSubmission(ctx: StateContext, cs: ChangeSet, scope: SubmissionScope, at: string): void {
  cs.guarded(transitionSubmissionStatement(ctx.db, scope.submission.id, ['pending'], { status: 'completed', completedAt: at, updatedAt: at }));
  trail(ctx, cs, scope, null, 'submission_completed', {}, at);
  submissionEvent(ctx, cs, 'submission.completed', scope);
  const source = messageSource(ctx, scope);
  for (const s of scope.submitters) {
    const channels = channelsFor(scope.submission, s);
    for (const message of messagesFor('completion', source, s, { email: channels.email, sms: false })) cs.addMessage(messageInsert(ctx.db, message));
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
  const next = await withDocumentLinks(ctx, { ...scope, submission: { ...submission, status: 'completed', completedAt: at, updatedAt: at } });
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

/**
 * Rule 2: a template with a role named "Witness" is finalized only once a witness has signed; until the
 * signer invites one (POST /s/<slug>/invite_witness) the submission stays pending.
 */
export function witnessed(scope: SubmissionScope, submitters: Submitter[]): boolean {
  const role = scope.template.roles.find((r) => r.name.trim().toLowerCase() === 'witness');
  return !role || submitters.some((s) => s.roleUuid === role.uuid && s.status === 'completed');
}

/** Hands a completed submission to the sealing job; a lost message is recovered by the sealing sweep. */
export async function requestSealing(ctx: Pick<StateContext, 'sealingQueue'>, submissionId: number): Promise<void> {
  if (!ctx.sealingQueue) return;
  await ctx.sealingQueue.send({ type: 'seal', submissionId }).catch((err) => console.error('sealing request failed', err));
}

/** A signer declines (decisions.md › Lifecycles: the submission stays pending but can never complete). */
export async function declineSubmitter(ctx: StateContext, scope: SubmissionScope, submitter: Submitter, reason: string): Promise<SubmissionScope> {
  assertSubmissionOpen(scope.submission);
  if (!(ACTIVE_SUBMITTER_STATES as readonly string[]).includes(submitter.status)) {
    throw unprocessable(`This submitter is already ${submitter.status}.`);
  }
  const at = nowIso();
  const declined: Submitter = { ...submitter, status: 'declined', declinedAt: at, declineReason: reason, updatedAt: at };
  const cs = new ChangeSet(ctx.db);
  cs.guarded(transitionSubmitterStatement(ctx.db, submitter.id, ACTIVE_SUBMITTER_STATES, { status: 'declined', declinedAt: at, declineReason: reason, updatedAt: at }));
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
  const submitters = scope.submitters.map((s) =>
    (ACTIVE_SUBMITTER_STATES as readonly string[]).includes(s.status) ? { ...s, status: 'expired' as const, expiredAt: at, updatedAt: at } : s,
  );
  const next: SubmissionScope = { ...scope, submission, submitters };
  const source = messageSource(ctx, next);
  for (const s of submitters) {
    if (s.status !== 'expired') continue;
    cs.add(transitionSubmitterStatement(ctx.db, s.id, ACTIVE_SUBMITTER_STATES, { status: 'expired', expiredAt: at, updatedAt: at }));
    formEvent(ctx, cs, 'form.expired', next, s);
    // Only people who were invited hear that it expired; someone never told about it is not emailed.
    const original = scope.submitters.find((o) => o.id === s.id)!;
    if (original.status !== 'waiting') {
      const channels = channelsFor(submission, s);
      for (const message of messagesFor('expiry', source, s, { email: channels.email, sms: false })) cs.addMessage(messageInsert(ctx.db, message));
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
  const submission: Submission = { ...scope.submission, status: 'archived', archivedAt: at, archivedFrom: scope.submission.status, updatedAt: at };
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
