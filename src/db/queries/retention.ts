// Retention and erasure statements (issue 33 › 5; src/services/submissions/erase-submission.ts): legal holds, the claim that
// starts an erasure, the batch that finishes it, the purge step's due rows and the rescheduling of an
// account's purges when its retention setting changes.
import { and, asc, eq, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { BatchStatement, Db } from '../client';
import { notFenced } from '../fences';
import {
  events,
  messages,
  payments,
  paymentSubscriptionInvoices,
  paymentSubscriptions,
  signatureUsage,
  signingVerifications,
  submissionDocuments,
  submissions,
  submitters,
  type NewSubmitter,
  type Submission,
} from '../schema';
import { deleteSubmissionUploadsStatement } from './storage';
import { deleteMembersOfSubmissionStatement } from './submitter-members';

/** Sets the hold, only while none is set and no erasure has claimed the submission (to be guarded). */
export function setLegalHoldStatement(db: Db, submissionId: number, at: string) {
  return db
    .update(submissions)
    .set({ legalHoldAt: at, updatedAt: at })
    .where(
      and(
        eq(submissions.id, submissionId),
        isNull(submissions.legalHoldAt),
        isNull(submissions.erasedAt),
        isNull(submissions.erasureStartedAt),
      ),
    );
}

/** Releases the hold, only while one is set (to be guarded). */
export function releaseLegalHoldStatement(db: Db, submissionId: number, at: string) {
  return db
    .update(submissions)
    .set({ legalHoldAt: null, updatedAt: at })
    .where(and(eq(submissions.id, submissionId), isNotNull(submissions.legalHoldAt)));
}

/**
 * Changes the submission row (to nothing) only while no erasure has claimed it: put first in a batch with
 * the stale guard after it, so the batch records nothing for a submission being erased (sealing's record).
 */
export function notErasingGuardStatement(db: Db, submissionId: number) {
  return db
    .update(submissions)
    .set({ updatedAt: sql`${submissions.updatedAt}` })
    .where(and(eq(submissions.id, submissionId), isNull(submissions.erasureStartedAt)));
}

/**
 * Claims the submission for erasure: only while no legal hold is set and it is not erased. One statement,
 * so a hold and an erasure racing each other are ordered by D1: whichever comes second finds the other's
 * mark (setLegalHold refuses a claimed submission). `purge_at` becomes now at the latest, so the purge
 * step finishes an erasure a crash interrupted.
 */
export async function claimErasure(db: Db, submissionId: number, at: string): Promise<boolean> {
  const rows = await db
    .update(submissions)
    .set({
      erasureStartedAt: sql`COALESCE(${submissions.erasureStartedAt}, ${at})`,
      purgeAt: sql`CASE WHEN ${submissions.purgeAt} IS NULL OR ${submissions.purgeAt} > ${at} THEN ${at} ELSE ${submissions.purgeAt} END`,
    })
    .where(and(eq(submissions.id, submissionId), isNull(submissions.legalHoldAt), isNull(submissions.erasedAt)))
    .returning({ id: submissions.id });
  return rows.length > 0;
}

/**
 * The statements that finish an erasure, the submission's first and guarded by the caller (it changes a
 * row only while the erasure is claimed and unfinished). Kept: the submission and submitter rows (values
 * and contact details replaced by their hashes), the trail, each sealed document's row with its SHA-256
 * (file key and size cleared) and the billing record of signatures made. Deleted: what only served
 * signing (verification codes, uploads, the people of an any-of group with their links), payment rows and messages (their bodies carry names and links),
 * and outbox events still held for a seal that will never come.
 */
export function eraseSubmissionStatements(
  db: Db,
  submission: Pick<Submission, 'id' | 'status'>,
  hashed: { id: number; values: Partial<NewSubmitter> }[],
  at: string,
): { guarded: BatchStatement; rest: BatchStatement[] } {
  const { id } = submission;
  // A draft or pending submission can no longer be signed: it is archived as it is erased.
  const archive = submission.status === 'draft' || submission.status === 'pending';
  const guarded = db
    .update(submissions)
    .set({
      erasedAt: at,
      metadata: {},
      preferences: {},
      updatedAt: at,
      ...(archive ? { status: 'archived' as const, archivedAt: at, archivedFrom: submission.status } : {}),
    })
    .where(
      and(eq(submissions.id, id), isNull(submissions.erasedAt), isNotNull(submissions.erasureStartedAt), isNull(submissions.legalHoldAt)),
    );
  const rest: BatchStatement[] = [
    ...hashed.map((s) => db.update(submitters).set(s.values).where(eq(submitters.id, s.id))),
    db.update(submissionDocuments).set({ r2Key: '', byteSize: 0 }).where(eq(submissionDocuments.submissionId, id)),
    db
      .delete(signingVerifications)
      .where(sql`${signingVerifications.submitterId} IN (SELECT id FROM submitters WHERE submission_id = ${id})`),
    deleteSubmissionUploadsStatement(db, id),
    // The people of an any-of group: their contact details and their own links.
    deleteMembersOfSubmissionStatement(db, id),
    db.delete(messages).where(eq(messages.submissionId, id)),
    db.delete(payments).where(eq(payments.submissionId, id)),
    // A recurring payment already started keeps running in Stripe (docs/payments.md › Recurring payments).
    db
      .delete(paymentSubscriptionInvoices)
      .where(
        sql`${paymentSubscriptionInvoices.paymentSubscriptionId} IN (SELECT id FROM payment_subscriptions WHERE submission_id = ${id})`,
      ),
    db.delete(paymentSubscriptions).where(eq(paymentSubscriptions.submissionId, id)),
    // Usage is a billing record: the signature was made, so its row stays, detached from the erased rows.
    db
      .update(signatureUsage)
      .set({ submissionId: null, submitterId: null })
      .where(eq(signatureUsage.submissionId, id)),
    // Events still waiting for this submission's seal link to documents that will never exist.
    db
      .delete(events)
      .where(eq(events.heldForSeal, id)),
  ];
  return { guarded, rest };
}

/**
 * Submissions due for erasure at `nowIso`, oldest first, at most `limit` (index submissions_purge):
 * retention's due ones and erasures a crash interrupted (claimed before `staleIso`), never a held one.
 */
export async function listDuePurges(db: Db, nowIso: string, staleIso: string, limit: number): Promise<Submission[]> {
  return db
    .select()
    .from(submissions)
    .where(
      and(
        isNotNull(submissions.purgeAt),
        isNull(submissions.erasedAt),
        lte(submissions.purgeAt, nowIso),
        isNull(submissions.legalHoldAt),
        or(isNull(submissions.erasureStartedAt), lte(submissions.erasureStartedAt, staleIso)),
        notFenced(submissions.accountId),
      ),
    )
    .orderBy(asc(submissions.purgeAt))
    .limit(limit);
}

/**
 * After the account's `documents_days` changed: the erasure date of each completed, unerased submission
 * whose template snapshot names no `retention_days` of its own (null: kept). Returns how many changed.
 */
export async function reschedulePurges(db: Db, accountId: number, days: number | null): Promise<number> {
  const purgeAt = days === null ? sql`NULL` : sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${submissions.completedAt}, ${`+${days} days`})`;
  const result = await db
    .update(submissions)
    .set({ purgeAt })
    .where(
      and(
        eq(submissions.accountId, accountId),
        isNotNull(submissions.completedAt),
        isNull(submissions.erasedAt),
        isNull(submissions.erasureStartedAt),
        sql`json_extract((SELECT snapshot FROM template_versions AS tv WHERE tv.template_id = ${submissions.templateId} AND tv.version = ${submissions.templateVersion}), '$.preferences.retention_days') IS NULL`,
      ),
    );
  return result.meta.changes;
}
