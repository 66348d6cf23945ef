// The outbox events and trail rows a submission's transitions add to their ChangeSet (spec › Events;
// the submission's audit trail), built from the scope as the transition leaves it.
import type { Db } from '../../db/client';
import { insertSubmissionEventStatement } from '../../db/queries/submissions';
import type { Account, SubmissionEventAction, Submitter } from '../../db/schema/index';
import type { EventName } from '../../lib/events';
import { outboxInsert } from '../events/outbox';
import type { PayloadIdentity } from '../webhooks/payload-shapes';
import { formEventData, submissionEventData } from '../webhooks/payloads';
import type { ChangeSet } from './change-set';
import {
  payloadSubmission,
  payloadSubmitter,
  submissionDocuments,
  submissionRef,
  templateRef,
  type SubmissionScope,
} from './submission-scope';

/** What writing events and trail rows reads from a transition's context (StateContext). */
export type EventContext = {
  db: Db;
  account: Pick<Account, 'id'>;
  /** Origin of API links in payloads (`download_url`). */
  apiBase: string;
  /** Who caused the change, for the submission's trail. */
  ip?: string | null;
  userAgent?: string | null;
};

/**
 * An event whose payload lists the submission's signed documents waits for them: every URL in a
 * delivered payload works when it arrives (docs/webhooks.md › Events and documents).
 */
function awaitingDocuments(scope: SubmissionScope, documents: readonly unknown[]): number | undefined {
  return documents.length > 0 ? scope.submission.id : undefined;
}

/** A form.* (or signing.complete) event about `submitter`; `identity` is signing.complete's signer identity. */
export function formEvent(
  ctx: EventContext,
  cs: ChangeSet,
  event: EventName,
  scope: SubmissionScope,
  submitter: Submitter,
  withDocuments = false,
  identity?: PayloadIdentity,
): void {
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
        ...(identity ? { identity } : {}),
      }),
      awaitsSealOf: awaitingDocuments(scope, documents),
    }),
  );
}

export function submissionEvent(ctx: EventContext, cs: ChangeSet, event: EventName, scope: SubmissionScope): void {
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

export function trail(
  ctx: EventContext,
  cs: ChangeSet,
  scope: SubmissionScope,
  submitter: Submitter | null,
  action: SubmissionEventAction,
  data: Record<string, unknown> = {},
  at?: string,
): void {
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
